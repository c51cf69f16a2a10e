package supervisor

import (
	"context"
	"strings"
	"time"

	"github.com/seed43a1e1ab/gocl/kernel/cellio"
	"github.com/seed43a1e1ab/gocl/kernel/comm"
	"github.com/seed43a1e1ab/gocl/kernel/enginewire"
)

// Execute runs one cell in the engine process.
func (s *Supervisor) Execute(ctx context.Context, code string, sink cellio.Sink) cellio.Result {
	return s.run(ctx, enginewire.OpExecute, enginewire.ExecuteBody{Code: code, AllowStdin: true}, sink, func(r enginewire.ExecuteReply) {
		s.mu.Lock()
		s.records = append(s.records, r.Declared...)
		s.lastCell = max(s.lastCell, cellNumber(r.Cell))
		s.mu.Unlock()
	})
}

// Comm handles one comm message from the front end in the engine process
// (dispatch.Comms): widget callbacks run there as a cell would.
func (s *Supervisor) Comm(ctx context.Context, m comm.Message, sink cellio.Sink) cellio.Result {
	return s.run(ctx, enginewire.OpComm, m, sink, nil)
}

// CommInfo lists the engine's open comms (dispatch.Comms).
func (s *Supervisor) CommInfo(target string) map[string]string {
	var r enginewire.CommInfoReply
	if p, err := s.engine(); err == nil {
		if p.call(enginewire.OpCommInfo, enginewire.CommInfoBody{Target: target}, &r) == nil {
			return r.Comms
		}
	}
	return map[string]string{}
}

// commSink is the optional part of a Sink that carries kernel-side comm
// messages (engine.CommSink).
type commSink interface{ Comm(comm.Message) }

// run sends a request that runs cell code (a cell, a comm handler) and
// serves its events until it ends or the engine dies; done sees the reply
// to a request that ended.
func (s *Supervisor) run(ctx context.Context, op string, body any, sink cellio.Sink, done func(enginewire.ExecuteReply)) (res cellio.Result) {
	if op == enginewire.OpComm {
		defer func() { s.noteCommCrash(res) }() // crash.go
	}
	var p *proc
	for p == nil {
		q, err := s.engineCtx(ctx)
		if err == errNotStarted {
			return errorResult("Interrupted", "the cell was interrupted before it started, while the engine process was starting", nil)
		}
		if err != nil {
			return errorResult("EngineUnavailable", err.Error(), nil)
		}
		s.mu.Lock()
		if s.p == q { // not replaced meanwhile (watch)
			p, s.running = q, true
			s.press.running++ // a new statement to count interrupts of (interrupt.go)
		}
		s.mu.Unlock()
	}
	if op == enginewire.OpExecute {
		// Notes are for a cell, where the user looks, never a comm
		// message's output, which front ends show nowhere.
		if note := s.takeNote(); note != "" {
			sink.Stream("stderr", note)
		}
	}
	defer func() {
		s.mu.Lock()
		s.running = false
		s.mu.Unlock()
	}()
	if cs, ok := sink.(commSink); ok {
		s.mu.Lock()
		s.lastComm = cs
		s.mu.Unlock()
	}
	id, ch, err := p.request(op, body)
	if err != nil {
		return s.died(p, sink, "")
	}
	ping := time.NewTicker(pingEvery)
	defer ping.Stop()
	// held is stderr text that starts like a Go crash report: if the engine
	// dies next, it is the report (it goes into the error), else output.
	var held string
	var heldAt time.Time
	release := func() {
		if held != "" {
			sink.Stream("stderr", held)
			held = ""
		}
	}
	var pong <-chan enginewire.Event
	var pingSent time.Time
	cancelled := ctx.Done()
	for {
		select {
		case ev, ok := <-ch:
			if !ok {
				return s.died(p, sink, held)
			}
			if ev.Kind == enginewire.EvStream {
				var b enginewire.StreamBody
				if enginewire.Decode(ev.Kind, ev.Body, &b) != nil {
					continue
				}
				if b.Name == "stderr" {
					if held != "" {
						held += b.Text
						continue
					}
					out, report := splitCrashReport(b.Text)
					if out != "" {
						sink.Stream("stderr", out)
					}
					if held, heldAt = report, time.Now(); held != "" {
						continue
					}
					continue
				}
				release()
				sink.Stream(b.Name, b.Text)
				continue
			}
			release()
			switch ev.Kind {
			case enginewire.EvDisplay:
				var m cellio.Message
				if enginewire.Decode(ev.Kind, ev.Body, &m) == nil {
					sink.Display(m)
				}
			case enginewire.EvInput:
				var b enginewire.InputBody
				_ = enginewire.Decode(ev.Kind, ev.Body, &b)
				go func() {
					v, err := sink.Input(b.Prompt, b.Password)
					if ctx.Err() != nil {
						// An interrupt ended the read: the engine must know
						// before it sees the failed read, so the cell stops.
						p.notify(enginewire.OpInterrupt, enginewire.TargetBody{Target: id})
					}
					r := enginewire.InputReplyBody{Target: id, Value: v}
					if err != nil {
						r.Err = err.Error()
					}
					p.notify(enginewire.OpInputReply, r)
				}()
			case enginewire.EvDone:
				var r enginewire.ExecuteReply
				if err := decodeDone(ev.Kind, ev, &r); err != nil {
					return cellio.Result{Err: &cellio.CellError{Name: "InternalError", Value: err.Error(),
						Traceback: []string{"InternalError: " + err.Error()}}}
				}
				s.mu.Lock()
				s.setBlocked(r.Blocked)
				s.mu.Unlock()
				if done != nil {
					done(r)
				}
				return r.Result
			case enginewire.EvComm:
				s.comm(ev)
			}
		case <-cancelled:
			cancelled = nil
			p.notify(enginewire.OpInterrupt, enginewire.TargetBody{Target: id})
		case <-ping.C:
			if pong == nil {
				var perr error
				_, pong, perr = p.request(enginewire.OpPing, nil)
				if perr != nil {
					pong = nil
				}
				pingSent = time.Now()
			} else if p.frozen(pingSent) {
				// The engine's own silence while we listened, not the time
				// since the ping: this loop may have been away in a long
				// display, with the pong waiting (liveness.go).
				p.setKilled(killedFrozen)
				return s.died(p, sink, held)
			}
		case _, ok := <-pong:
			if ok && held != "" && pingSent.After(heldAt) && time.Since(heldAt) > heldFor {
				// The engine answered after the text came: it is not
				// dying, so the text is the cell's own.
				release()
			}
			pong = nil
		}
	}
}

// died ends the cell whose engine process p died: what the process left
// unread goes out first, then one error that says what killed it. A fresh
// engine is started at once.
func (s *Supervisor) died(p *proc, sink cellio.Sink, held string) cellio.Result {
	why := p.killedWhy()
	c, out, errText := s.postMortem(p, held)
	if out != "" {
		sink.Stream("stdout", out)
	}
	if errText != "" {
		sink.Stream("stderr", errText)
	}
	s.mu.Lock()
	closed := s.closed
	plan := planReplay(s.records, s.failed)
	s.mu.Unlock()
	if !closed {
		s.replace(p, "the engine died")
	} else {
		p.close()
	}
	switch why {
	case killedByRestart:
		return errorResult("Restarted", "the kernel was restarted while this cell ran; its engine process was stopped", nil)
	case killedByInterrupt:
		return errorResult("Interrupted", "a statement was stuck in a compiled call, so a second interrupt replaced the engine process; "+
			lostValues(plan), nil)
	}
	name, value, evidence := c.explain()
	value = "the engine process died: " + value
	return errorResult(name, value, append(evidence, "", lostValues(plan)))
}

// postMortem waits for a dead (or dying) engine process to be reaped and
// gathers what it left: the crash report, and the output its capture pipes
// still held, with the part of it that is the report taken out.
func (s *Supervisor) postMortem(p *proc, held string) (c crash, out, errText string) {
	why := p.killedWhy()
	if why == killedFrozen {
		// A runtime crash report may be blocked on the captured stderr
		// pipe: reading it lets the dying process finish and exit.
		go p.leftover(2 * time.Second)
	}
	select {
	case <-p.exited:
	case <-time.After(2 * time.Second):
		p.kill()
		<-p.exited
	}
	<-p.stderrDone(300 * time.Millisecond)
	out, errText = p.leftover(100 * time.Millisecond)
	// The runtime prints a fatal error's headline to fd 2 only (the cell's
	// captured stderr), the rest also to the crash output: the report is
	// taken from the captured stderr where it is there.
	report := p.report.text()
	errText, dump := splitCrashReport(held + errText)
	if dump == "" {
		// The headline may be lost (read by the engine just before it
		// froze): the rest of the report is what the crash output also got.
		errText, dump = cutAgainst(errText, report)
	}
	if dump != "" {
		report = dump + "\n" + report
		if strings.TrimSpace(errText) == "" {
			errText = "" // the blank line the runtime prints before its trace
		}
	}
	return crash{report: report, state: p.exitState(), maps: p.maps.text, frozen: why == killedFrozen, limit: s.limit}, out, errText
}

// watch replaces an engine process that dies while no cell runs (a
// goroutine of an earlier cell crashed it), and tells the next cell why.
func (s *Supervisor) watch(p *proc) {
	<-p.lost
	s.mu.Lock()
	idle := !s.running && s.p == p && !s.closed && p.killedWhy() == killedNot
	if idle {
		s.p = nil // requests wait for the replacement, which starts below
		s.starting = make(chan struct{})
	}
	starting := s.starting
	s.mu.Unlock()
	if !idle {
		return
	}
	c, out, errText := s.postMortem(p, "")
	_, value, evidence := c.explain()
	s.mu.Lock()
	plan := planReplay(s.records, s.failed)
	s.note += out + errText + "gocl: the engine process died after the last cell ran (a goroutine of an earlier cell?): " +
		value + "\n" + strings.Join(append(evidence, "", lostValues(plan)), "\n") + "\n"
	s.mu.Unlock()
	s.restartInto(starting, p, "the engine died between cells")
}

// lostValues says what a crash lost and what the fresh engine declares
// again.
func lostValues(p replayPlan) string {
	msg := "The session's values (variables, buffers, goroutines) were lost; a fresh engine runs the next cell."
	if len(p.kept) > 0 {
		msg += " It declares again the imports, consts, types and funcs of earlier cells (" + strings.Join(p.kept, ", ") +
			"), never their statements, main or init."
	}
	if lost := p.lostNames(); len(lost) > 0 {
		msg += " Lost until their cells run again, and refused meanwhile: " + strings.Join(lost, ", ") + "."
	} else {
		msg += " Re-run the cells that made data."
	}
	return msg
}

func errorResult(name, value string, evidence []string) cellio.Result {
	tb := append([]string{name + ": " + value}, evidence...)
	return cellio.Result{Err: &cellio.CellError{Name: name, Value: value, Traceback: tb}}
}

// splitCrashReport splits what a dying engine left on the cell's stderr into
// the cell's own output and the Go runtime's crash report, which goes into
// the error instead.
func splitCrashReport(s string) (output, report string) {
	best := len(s)
	for _, h := range []string{"fatal error: ", "panic: ", "runtime: goroutine stack exceeds", "runtime: out of memory", "runtime: program exceeds",
		"SIGSEGV: ", "SIGBUS: ", "SIGABRT: ", "unexpected fault address", "runtime stack:", "gocl-fault: "} {
		if i := strings.Index(s, h); i >= 0 && (i == 0 || s[i-1] == '\n') && i < best {
			best = i
		}
	}
	if m := assertLine.FindStringIndex(s); m != nil && m[0] < best { // crash.go
		best = m[0]
	}
	return s[:best], s[best:]
}

// cutAgainst splits s at its first line that is also in the crash report:
// from there on it is the report, not the cell's output.
func cutAgainst(s, report string) (output, rest string) {
	if report == "" {
		return s, ""
	}
	off := 0
	for _, l := range strings.SplitAfter(s, "\n") {
		if t := strings.TrimSpace(l); len(t) >= 8 && strings.Contains(report, t) {
			return s[:off], s[off:]
		}
		off += len(l)
	}
	return s, ""
}

// comm delivers a kernel-side comm message to the last sink that carried
// comm messages: the running request's, or, for one a goroutine sent after
// its request ended, the latest one's (as ipykernel parents them).
func (s *Supervisor) comm(ev enginewire.Event) {
	var m comm.Message
	if enginewire.Decode(ev.Kind, ev.Body, &m) != nil {
		return
	}
	s.mu.Lock()
	cs := s.lastComm
	s.mu.Unlock()
	if cs != nil {
		cs.Comm(m)
	}
}
