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
// again the declarations of earlier cells that it can make exactly (never a
// statement, a main or an init), and refuses the names it lost, saying
// which cell to run again (decls.go). Two interrupts within a few
// seconds while a statement is stuck in a compiled call replace the engine.
package supervisor

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strconv"
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
	// doubleInterrupt is how close two interrupts of one statement must be
	// to replace an engine whose statement is stuck (interrupt.go).
	doubleInterrupt = 5 * time.Second
	// stuckAfter is how long a cell may take to stop after an interrupt
	// before a second interrupt of it counts it as stuck.
	stuckAfter = time.Second
	// askBlocked is how long an idle engine may take to say whether a
	// statement is stuck.
	askBlocked = 2 * time.Second
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

	mu        sync.Mutex
	p         *proc
	launching *proc         // an engine process not yet ready (start)
	starting  chan struct{} // closed when a replacement engine is up
	startErr  error
	closed    bool
	running   bool       // an Execute is in progress
	blocked   bool       // the engine reports a stuck interrupted statement
	press     press      // the last interrupt that had a statement to stop (interrupt.go)
	note      string     // printed on the stderr of the next cell
	lastComm  commSink   // the last sink that carried comm messages
	debug     debugState // JupyterLab's debugger, across engines (debug.go)
	// records are what the cells that ran declared, in order (decls.go);
	// failed the records a replay could not make, by recordKey; lastCell
	// the highest engine cell number seen.
	records  []cellio.Declared
	failed   map[string]string
	lastCell int
}

// New returns a supervisor whose first engine process starts beside the
// caller: New does not wait for it. A request waits for the engine only as
// long as it takes to start (tens of milliseconds), so the kernel can answer
// kernel_info at once; an engine that cannot start fails the requests that
// need it, each with the reason, and the next request tries again. Ready
// waits for the start.
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
	s.replace(nil, "")
	return s, nil
}

// Ready waits until an engine process serves requests, and returns why none
// does when its start failed or ctx ended first.
func (s *Supervisor) Ready(ctx context.Context) error {
	_, err := s.engineCtx(ctx)
	return err
}

// start starts an engine process and waits until it is ready. Close kills
// one that is still starting.
func (s *Supervisor) start() (*proc, error) {
	p, err := launchProc(s.cfg.Exe, []string{"--memory-limit", strconv.FormatInt(s.limit, 10)}, nil, s.cfg.Log,
		func(ev enginewire.Event) {
			if ev.Kind == enginewire.EvComm {
				s.comm(ev) // sent after its request ended
			}
			if ev.Kind == enginewire.EvDebug {
				s.debugEvent(ev) // debug.go
			}
		})
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.launching = p
	closed := s.closed
	s.mu.Unlock()
	if closed {
		p.kill()
	}
	err = p.ready()
	s.mu.Lock()
	s.launching = nil
	s.mu.Unlock()
	if err != nil {
		return nil, err
	}
	go s.watch(p)
	return p, nil
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

// engine returns the current engine process, waiting for one that is
// starting.
func (s *Supervisor) engine() (*proc, error) { return s.engineCtx(context.Background()) }

// errNotStarted is what engineCtx returns when ctx ends while the engine
// process is still starting.
var errNotStarted = errors.New("the engine process was still starting")

// engineCtx is engine that stops waiting when ctx ends (an interrupt of a
// cell sent while the engine starts).
func (s *Supervisor) engineCtx(ctx context.Context) (*proc, error) {
	s.mu.Lock()
	for s.p == nil && !s.closed {
		ch := s.starting
		s.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return nil, errNotStarted
		}
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

// replace starts a fresh engine in place of old (nil: none is running; why
// "": the first) and declares the earlier cells' funcs and types in it. It
// returns at once; requests wait for the new engine.
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
// declarations in it (never their statements, main or init), and closes
// starting once it serves (or failed).
func (s *Supervisor) restartInto(starting chan struct{}, old *proc, why string) {
	s.mu.Lock()
	s.blocked = false
	s.press = press{}
	plan := planReplay(s.records, s.failed)
	next := s.lastCell + 2 // past the cell that crashed
	s.mu.Unlock()
	if old != nil {
		go old.stop(0)
	}
	go func() {
		t0 := time.Now()
		p, err := s.start()
		var note string
		if err == nil && (len(plan.decls) > 0 || len(plan.lost) > 0) {
			failed, derr := s.declare(p, plan, next)
			if derr != nil {
				// Declaring them again killed or wedged the fresh engine
				// (a compiled cell's plugin?): a bare one then, with every
				// earlier name lost rather than a session that fails.
				p.kill()
				<-p.exited
				p.close()
				for _, d := range plan.decls {
					for _, n := range d.Names {
						plan.lost[n] = "lost in the crash of " + cellLabel(d.Cell) + "; run that cell again (declaring it again failed: " + derr.Error() + ")"
					}
				}
				plan.decls = nil
				if p, err = s.start(); err == nil {
					_, _ = s.declare(p, plan, next)
				}
				note = "gocl: the earlier cells' declarations could not be made again in a fresh engine (" + derr.Error() +
					"); every earlier name is lost until its cell runs again.\n"
			} else {
				note = replayNote(failed)
			}
		}
		if err == nil {
			s.replayDebug(p) // debug.go: the fresh engine keeps the debugger's breakpoints
		}
		s.mu.Lock()
		if s.closed && p != nil {
			s.mu.Unlock()
			p.stop(0)
			close(starting)
			return
		}
		s.p, s.startErr = p, err
		s.note += note
		close(starting)
		closed := s.closed
		s.mu.Unlock()
		switch {
		case s.cfg.Log == nil || closed:
		case why != "":
			s.cfg.Log.Info("engine replaced", "why", why, "start", time.Since(t0), "err", err)
		case err != nil:
			s.cfg.Log.Warn("the engine process did not start; the next request tries again", "err", err)
		default:
			s.cfg.Log.Debug("engine started", "start", time.Since(t0))
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
	if s.launching != nil {
		s.launching.kill() // still starting: nothing of the session is in it yet
	}
	s.mu.Unlock()
	if p != nil {
		p.setKilled(killedByRestart)
		p.stop(stopGrace)
	} else if starting != nil {
		<-starting
	}
	return nil
}

// takeNote returns and clears the note for the next cell.
func (s *Supervisor) takeNote() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := s.note
	s.note = ""
	return n
}

// Evaluate answers one user_expression.
func (s *Supervisor) Evaluate(ctx context.Context, expr string) (cellio.Bundle, *cellio.CellError) {
	p, err := s.engine()
	if err != nil {
		return nil, &cellio.CellError{Name: "EngineUnavailable", Value: err.Error()}
	}
	id, ch, err := p.request(enginewire.OpEvaluate, enginewire.EvaluateBody{Expr: expr})
	if err != nil {
		return nil, &cellio.CellError{Name: "EngineUnavailable", Value: err.Error()}
	}
	// The expression runs as a cell does: an interrupt or the caller's
	// deadline stops it in the engine, which then answers.
	var giveUp <-chan time.Time
	cancelled := ctx.Done()
	for {
		select {
		case ev, ok := <-ch:
			if !ok {
				return nil, &cellio.CellError{Name: "EngineUnavailable", Value: errEngineGone.Error()}
			}
			if ev.Kind != enginewire.EvDone {
				continue
			}
			var r enginewire.EvaluateReply
			if err := decodeDone(ev.Kind, ev, &r); err != nil {
				return nil, &cellio.CellError{Name: "EngineUnavailable", Value: err.Error()}
			}
			return r.Data, r.Err
		case <-cancelled:
			cancelled = nil
			p.notify(enginewire.OpInterrupt, enginewire.TargetBody{Target: id})
			giveUp = time.After(evalGiveUp)
		case <-giveUp:
			p.forget(id)
			return nil, &cellio.CellError{Name: "Interrupted", Value: "the expression did not stop when interrupted; " +
				"it may still hold the engine (interrupt again, or restart the kernel)"}
		}
	}
}

// evalGiveUp is how long Evaluate waits for an interrupted expression's
// answer before it stops waiting.
const evalGiveUp = 5 * time.Second

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
