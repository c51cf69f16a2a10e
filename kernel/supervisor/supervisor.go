// Package supervisor runs the engine in a child process of its own
// (`gocl engine`, kernel/enginehost) and stands in for it in the kernel
// process: it implements dispatch.Engine, dispatch.Assistant and
// nbrun.Runner over the protocol of kernel/enginewire.
//
// The kernel process keeps the sockets, the heartbeat, the execution count,
// history and the IOPub queue, and never runs cell code. When the engine
// dies while a cell runs (a SIGSEGV in an OpenCL kernel, a stack overflow,
// concurrent map writes, an allocation beyond the memory limit, kill -9),
// that cell ends with one error that says what killed it, with the Go
// runtime's report as evidence; a fresh engine starts at once and declares
// again the funcs and types of earlier cells. Two interrupts within a few
// seconds while a statement is stuck in a compiled call replace the engine.
package supervisor

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/seed43a1e1ab/gocl/kernel/cellio"
	"github.com/seed43a1e1ab/gocl/kernel/enginewire"
)

// Config says how to start engine processes.
type Config struct {
	// Exe is the gocl binary that runs `gocl engine`; the running
	// executable when empty.
	Exe string
	// Log receives the engines' own stderr and the supervisor's notes.
	Log *slog.Logger
}

// Time limits of the supervisor. None is a pass/fail condition of a cell.
const (
	// doubleInterrupt is how close two interrupts must be to replace an
	// engine whose statement is stuck.
	doubleInterrupt = 5 * time.Second
	// pingEvery and frozenAfter detect an engine that stopped answering
	// (a Go crash report blocked on a pipe, a frozen process).
	pingEvery   = time.Second
	frozenAfter = 6 * time.Second
	// stopGrace is how long a shutdown request may take before the engine
	// process is killed.
	stopGrace = time.Second
	// heldFor is how long stderr text that looks like a crash report waits
	// for the engine to die before it is shown as the cell's output (once
	// the engine answered a ping sent after it came).
	heldFor = time.Second
)

// Supervisor is one session's engine process, replaced when it dies.
type Supervisor struct {
	cfg   Config
	limit int64

	mu            sync.Mutex
	p             *proc
	starting      chan struct{} // closed when a replacement engine is up
	startErr      error
	closed        bool
	running       bool      // an Execute is in progress
	blocked       bool      // the engine reports a stuck interrupted statement
	lastInterrupt time.Time // of the previous interrupt
	note          string    // printed on the stderr of the next cell
	decls         []string  // declarations of the cells that ran, in order
	declNames     []string  // the funcs and types among them
}

// New starts an engine process and waits until it is ready.
func New(cfg Config) (*Supervisor, error) {
	if cfg.Exe == "" {
		exe, err := os.Executable()
		if err != nil {
			return nil, fmt.Errorf("finding gocl's binary to start the engine: %w", err)
		}
		cfg.Exe = exe
	}
	limit, source, err := MemoryLimit()
	if err != nil && cfg.Log != nil {
		cfg.Log.Warn("bad memory limit; the default applies", "err", err, "limit", bytesText(limit), "source", source)
	}
	s := &Supervisor{cfg: cfg, limit: limit}
	p, err := s.start()
	if err != nil {
		return nil, err
	}
	s.p = p
	return s, nil
}

func (s *Supervisor) start() (*proc, error) {
	p, err := startProc(s.cfg.Exe, []string{"--memory-limit", strconv.FormatInt(s.limit, 10)}, nil, s.cfg.Log)
	if err == nil {
		go s.watch(p)
	}
	return p, err
}

// PID is the engine process's id (0 while one is starting).
func (s *Supervisor) PID() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.p == nil {
		return 0
	}
	return s.p.pid
}

// engine returns the current engine process, waiting for a replacement
// that is starting.
func (s *Supervisor) engine() (*proc, error) {
	s.mu.Lock()
	for s.p == nil && !s.closed {
		ch := s.starting
		s.mu.Unlock()
		<-ch
		s.mu.Lock()
		if s.p == nil && s.startErr != nil {
			err := s.startErr
			s.startErr = nil
			s.mu.Unlock()
			// Try again at the next request rather than never.
			s.replace(nil, "")
			return nil, err
		}
	}
	defer s.mu.Unlock()
	if s.closed {
		return nil, errors.New("this engine was closed; restart the kernel")
	}
	return s.p, nil
}

// replace starts a fresh engine in place of old (nil: none is running) and
// declares the earlier cells' funcs and types in it. It returns at once;
// requests wait for the new engine.
func (s *Supervisor) replace(old *proc, why string) {
	s.mu.Lock()
	if s.closed || (old != nil && s.p != old) || (old == nil && s.p == nil && s.starting != nil && !closedChan(s.starting)) {
		s.mu.Unlock()
		return
	}
	s.p = nil
	starting := make(chan struct{})
	s.starting = starting
	s.mu.Unlock()
	s.restartInto(starting, old, why)
}

// restartInto stops old, starts a fresh engine, declares the earlier cells'
// funcs and types in it, and closes starting once it serves (or failed).
func (s *Supervisor) restartInto(starting chan struct{}, old *proc, why string) {
	s.mu.Lock()
	s.blocked = false
	decls := append([]string(nil), s.decls...)
	s.mu.Unlock()
	if old != nil {
		go old.stop(0)
	}
	go func() {
		t0 := time.Now()
		p, err := s.start()
		var failed []string
		if err == nil && len(decls) > 0 {
			var r enginewire.DeclareReply
			if derr := p.call(enginewire.OpDeclare, enginewire.DeclareBody{Sources: decls}, &r); derr != nil {
				failed = append(failed, derr.Error())
			}
			failed = append(failed, r.Failed...)
		}
		s.mu.Lock()
		if s.closed && p != nil {
			s.mu.Unlock()
			p.stop(0)
			close(starting)
			return
		}
		s.p, s.startErr = p, err
		if len(failed) > 0 {
			s.note += "gocl: these declarations could not be made again in the fresh engine: " + strings.Join(failed, "; ") + "\n"
		}
		close(starting)
		s.mu.Unlock()
		if s.cfg.Log != nil {
			s.cfg.Log.Info("engine replaced", "why", why, "start", time.Since(t0), "err", err)
		}
	}()
}

func closedChan(ch chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// Close stops the engine process; the session's memory is freed with it.
func (s *Supervisor) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	p := s.p
	starting := s.starting
	s.mu.Unlock()
	if p != nil {
		p.setKilled(killedByRestart)
		p.stop(stopGrace)
	} else if starting != nil {
		<-starting
	}
	return nil
}

// Interrupt is called for every interrupt request, besides the cancelling of
// the running cell's context. A second one within doubleInterrupt, while a
// statement is stuck, kills and replaces the engine.
func (s *Supervisor) Interrupt() {
	now := time.Now()
	s.mu.Lock()
	second := !s.lastInterrupt.IsZero() && now.Sub(s.lastInterrupt) < doubleInterrupt
	s.lastInterrupt = now
	p := s.p
	stuck := s.running || s.blocked
	s.mu.Unlock()
	if !second || !stuck || p == nil {
		return
	}
	if s.cfg.Log != nil {
		s.cfg.Log.Warn("second interrupt while a statement is stuck: replacing the engine", "pid", p.pid)
	}
	p.setKilled(killedByInterrupt)
	s.mu.Lock()
	running := s.running
	if !running {
		s.note += "gocl: the engine was replaced after a second interrupt, because a statement was stuck in a compiled " +
			"call; the session's values were lost (funcs and types were declared again).\n"
	}
	s.mu.Unlock()
	p.kill()
	if !running {
		s.replace(p, "second interrupt")
	}
}

// takeNote returns and clears the note for the next cell.
func (s *Supervisor) takeNote() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := s.note
	s.note = ""
	return n
}

// Execute runs one cell in the engine process.
func (s *Supervisor) Execute(ctx context.Context, code string, sink cellio.Sink) cellio.Result {
	var p *proc
	for p == nil {
		q, err := s.engine()
		if err != nil {
			return cellio.Result{Err: &cellio.CellError{Name: "EngineUnavailable", Value: err.Error(),
				Traceback: []string{"EngineUnavailable: " + err.Error()}}}
		}
		s.mu.Lock()
		if s.p == q { // not replaced meanwhile (watch)
			p, s.running = q, true
		}
		s.mu.Unlock()
	}
	if note := s.takeNote(); note != "" {
		sink.Stream("stderr", note)
	}
	defer func() {
		s.mu.Lock()
		s.running = false
		s.mu.Unlock()
	}()
	id, ch, err := p.request(enginewire.OpExecute, enginewire.ExecuteBody{Code: code, AllowStdin: true})
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
				s.blocked = r.Blocked
				if r.Result.Err == nil || !isCompileError(r.Result.Err) {
					if d, names := declarations(code); d != "" {
						s.decls = append(s.decls, d)
						s.declNames = appendNew(s.declNames, names...)
					}
				}
				s.mu.Unlock()
				return r.Result
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
			} else if time.Since(pingSent) > frozenAfter {
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

func appendNew(list []string, names ...string) []string {
	for _, n := range names {
		found := false
		for _, m := range list {
			if m == n {
				found = true
				break
			}
		}
		if !found {
			list = append(list, n)
		}
	}
	return list
}

// isCompileError says whether a cell failed before it ran, so that it
// declared nothing.
func isCompileError(e *cellio.CellError) bool {
	switch e.Name {
	case "SyntaxError", "CompileError", "TypeError", "ImportError":
		return true
	}
	return false
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
	names := append([]string(nil), s.declNames...)
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
			lostValues(names), nil)
	}
	name, value, evidence := c.explain()
	value = "the engine process died: " + value
	return errorResult(name, value, append(evidence, "", lostValues(names)))
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
	names := append([]string(nil), s.declNames...)
	s.note += out + errText + "gocl: the engine process died after the last cell ran (a goroutine of an earlier cell?): " +
		value + "\n" + strings.Join(append(evidence, "", lostValues(names)), "\n") + "\n"
	s.mu.Unlock()
	s.restartInto(starting, p, "the engine died between cells")
}

func lostValues(names []string) string {
	msg := "The session's values (variables, buffers, goroutines) were lost; a fresh engine runs the next cell."
	if len(names) > 0 {
		msg += " It declares again the funcs and types of earlier cells (" + strings.Join(names, ", ") +
			"); re-run the cells that made data."
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

// Evaluate answers one user_expression.
func (s *Supervisor) Evaluate(ctx context.Context, expr string) (cellio.Bundle, *cellio.CellError) {
	p, err := s.engine()
	if err != nil {
		return nil, &cellio.CellError{Name: "EngineUnavailable", Value: err.Error()}
	}
	var r enginewire.EvaluateReply
	if err := p.call(enginewire.OpEvaluate, enginewire.EvaluateBody{Expr: expr}, &r); err != nil {
		return nil, &cellio.CellError{Name: "EngineUnavailable", Value: err.Error()}
	}
	return r.Data, r.Err
}

// Complete answers complete_request.
func (s *Supervisor) Complete(code string, cursor int) ([]string, int, int, map[string]any) {
	var r enginewire.CompleteReply
	if p, err := s.engine(); err == nil {
		if p.call(enginewire.OpComplete, enginewire.CompleteBody{Code: code, Cursor: cursor}, &r) == nil {
			return r.Matches, r.Start, r.End, r.Metadata
		}
	}
	return nil, cursor, cursor, nil
}

// Inspect answers inspect_request.
func (s *Supervisor) Inspect(code string, cursor, detail int) (map[string]any, bool) {
	var r enginewire.InspectReply
	if p, err := s.engine(); err == nil {
		if p.call(enginewire.OpInspect, enginewire.InspectBody{Code: code, Cursor: cursor, Detail: detail}, &r) == nil {
			return r.Data, r.Found
		}
	}
	return nil, false
}

// IsComplete answers is_complete_request.
func (s *Supervisor) IsComplete(code string) (string, string) {
	var r enginewire.IsCompleteReply
	if p, err := s.engine(); err == nil {
		if p.call(enginewire.OpIsComplete, enginewire.IsCompleteBody{Code: code}, &r) == nil {
			return r.Status, r.Indent
		}
	}
	return "unknown", ""
}
