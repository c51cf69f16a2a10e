package engine

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/traefik/yaegi/interp"

	"github.com/seed43a1e1ab/gocl/kernel/cellctx"
	"github.com/seed43a1e1ab/gocl/kernel/comm"
)

// Comms: the engine's half of Jupyter comms (kernel/comm), which is what
// ipywidgets (kernel/widgets) rides on.
//
// Into the engine: the dispatcher hands each comm_open, comm_msg and
// comm_close from the front end to Comm, as plain data, with a Sink for what
// handling it emits. Comm runs the handler the way Execute runs a cell: one
// at a time with cells, output captured from fds 1 and 2 and the display
// package, interruptible through ctx, a panic turned into a CellError.
//
// Out of the engine: kernel-side comm messages (a widget created, a value
// set from Go, echo_update) reach the sink of the running cell or comm
// handler (the running request, kernel/cellctx) through its CommSink method;
// sent from a goroutine when nothing runs, they go to the last sink that
// carried comm messages, as ipykernel sends them with the last request as
// parent (kernel/comm keeps that route).

// resetComms forgets the comms of an earlier interpreter; New calls it.
func resetComms() { comm.Reset() }

// Comm handles one comm message from the front end (comm_open, comm_msg or
// comm_close): the target's opener or the comm's handler runs, and with it
// any widget callbacks, as a cell would. What they print or display reaches
// sink; a failure comes back in Result.Err. Cancelling ctx interrupts them.
func (e *Engine) Comm(ctx context.Context, m comm.Message, sink Sink) Result {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return Result{Err: simpleError("EngineClosed", "this engine was closed; restart the kernel")}
	}
	if err := e.waitBusy(ctx); err != nil {
		return Result{Err: err}
	}
	_, end := e.beginCellIO(ctx, sink) // the captures of its callbacks end with it
	defer end()
	if err := e.runFunc(ctx, func() error { return comm.Deliver(m) }); err != nil {
		return Result{Err: err}
	}
	return Result{}
}

// CommInfo lists the open comms, comm id -> target name, only those of
// target when it is not empty (comm_info_request).
func (e *Engine) CommInfo(target string) map[string]string { return comm.Info(target) }

// runFunc runs f, compiled code that may call into interpreted code (widget
// callbacks), on its own goroutine as run runs a cell's statement: an
// interrupt stops the interpreted frames, a panic becomes a CellError.
func (e *Engine) runFunc(ctx context.Context, f func() error) *CellError {
	if ctx.Err() != nil {
		return interrupted("")
	}
	e.stopper.arm()
	done := make(chan struct{})
	var ferr error
	var panicked any
	go cellctx.Run(func() { // a request's goroutine: interrupt.go
		defer close(done)
		defer func() {
			if r := recover(); r != nil {
				panicked = r
			}
		}()
		ferr = f()
	})
	select {
	case <-done:
		e.stopper.disarm()
		if panicked != nil {
			if p, ok := panicked.(interp.Panic); ok {
				panicked = p.Value
			}
			return simpleError("panic", fmt.Sprintf("a comm handler panicked: %v", panicked))
		}
		var refused *comm.RefusedError
		if errors.As(ferr, &refused) {
			return simpleError(CommRefused, ferr.Error())
		}
		if ferr != nil {
			return simpleError("CommError", ferr.Error())
		}
		return nil
	case <-ctx.Done():
	}
	e.stopper.stop()
	defer e.stopper.disarm()
	select {
	case <-done:
		return interrupted("")
	case <-time.After(stopGrace):
		e.busy = done
		return interrupted("The widget callback is still inside a compiled call that cannot be interrupted; " +
			"the next cell waits for it to return.")
	}
}
