package engine

import (
	"sync/atomic"

	"github.com/traefik/yaegi/interp"

	"github.com/seed43a1e1ab/gocl/kernel/cellctx"
	"github.com/seed43a1e1ab/gocl/kernel/internal/yaegiaccess"
)

// stopper interrupts a running interpreter the way yaegi's own
// ExecuteWithContext does (bump the run id, close the done channel), but lets
// the engine run Execute on its own goroutine and so know when the
// interpreted code has really stopped. yaegi keeps that state unexported;
// gocl's copy of yaegi exports accessors for it, which only
// kernel/internal/yaegiaccess calls (and tests, field by field).
//
// An interrupt is for the request the engine runs (a cell's statement, a
// widget callback, a comm handler: each on a goroutine started in
// cellctx.Run), and for nothing else. Unpatched yaegi stops every frame:
// every func value made before an interrupt then returned zero values, every
// widget callback went dead, and every goroutine of an earlier cell stopped
// (issue 23). gocl's copy of yaegi (third_party/yaegi, PATCHES.md) asks the
// stop filter, when a frame sees the bump, whether its goroutine must stop:
// only a request's goroutine does, or every goroutine once the engine is
// closed. A goroutine a cell started keeps running, as a Python thread
// survives KeyboardInterrupt; a runaway one runs until the kernel restarts.
type stopper struct {
	in *interp.Interpreter

	// halted is closed by stop; a fresh one is made by arm. It is ours, not
	// yaegi's, so that waiting on it takes none of yaegi's locks.
	halted atomic.Pointer[chan struct{}]

	// closing makes an interrupt stop every goroutine (Engine.Close).
	closing atomic.Bool
}

func newStopper(i *interp.Interpreter) *stopper {
	s := &stopper{in: i}
	i.SetStopFilter(func() bool { return s.closing.Load() || cellctx.InRequest() })
	return s
}

// arm prepares a run: channel operations of interpreted code become
// cancellable through a fresh done channel.
func (s *stopper) arm() {
	yaegiaccess.Arm(s.in)
	h := make(chan struct{})
	s.halted.Store(&h)
}

// disarm gives the interpreter an open done channel once a request is over,
// so that a goroutine a cell started, which calls a closure after an
// interrupt, does not find it closed (the patched yaegi would go on anyway,
// after a stack walk: see cellctx.InRequest).
func (s *stopper) disarm() {
	yaegiaccess.Reopen(s.in)
}

// stopped returns a channel closed once stop has been called for the
// current run.
func (s *stopper) stopped() <-chan struct{} {
	if h := s.halted.Load(); h != nil {
		return *h
	}
	return nil
}

// stop makes every interpreted frame return at its next step and wakes
// interpreted channel operations. It must be called at most once per arm.
func (s *stopper) stop() {
	yaegiaccess.Stop(s.in) // as yaegi's stop: no lock, running frames may hold it
	if h := s.halted.Load(); h != nil {
		close(*h)
	}

}
