// Package cellctx is the running request: the one object through which what
// a cell, a widget callback or a comm handler emits and reads reaches its
// destination.
//
// The engine begins a Request for each request it runs (Begin) and ends it
// when the request is answered. The packages that cells and compiled code
// use find it through one accessor, Running: display publishes to
// Running().Display, comm sends through Running().Comm, the Output widgets
// capture with Running().Capture, and compiled code waits on Current(), the
// request's context, which an interrupt cancels. Nothing else is installed
// per request; a Request's methods are safe on nil (no request runs), so
// callers need not check.
//
// There is one running request per process, because what it captures is
// the process's: file descriptors 1 and 2 (see kernel/engine).
package cellctx

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"

	"github.com/seed43a1e1ab/gocl/kernel/cellio"
)

// IO is where a request's output goes, as the engine gives it to Begin.
type IO struct {
	// Sink receives the request's streams, displays and input requests,
	// and its comm messages when it is also a cellio.CommSink; nil drops
	// them (and refuses input).
	Sink cellio.Sink
	// Flush delivers to the sink everything the request has written to
	// fds 1 and 2 so far; displays and captures call it first, so that
	// prints keep their place among them. Nil when there is nothing to
	// flush.
	Flush func()
	// Log is the kernel's log, never the cell's output: notes about the
	// request itself go there. Nil drops them.
	Log io.Writer
}

// Capturer receives the output of the running request instead of its sink
// while a Capture is in effect: an ipywidgets Output widget is one
// (kernel/widgets). Display returns false for a message it does not take
// (an update of a display it never showed), which then goes on to the sink.
type Capturer interface {
	Stream(name, text string)
	Display(m cellio.Message) bool
}

// Request is one running request of the engine: its context, its sink, and
// the captures in effect for it. Its methods may be called from any
// goroutine; deliveries to the sink are serialized.
type Request struct {
	ctx context.Context
	io  IO

	mu       sync.Mutex // serializes Stream and Display
	capMu    sync.Mutex
	captures []Capturer // innermost last
}

var running atomic.Pointer[Request]

// Begin makes a request with context ctx the running one; its output goes
// to out. The function it returns ends the request (calling it again does
// nothing): the request that ran before Begin, if any, is the running one
// again. The engine calls Begin once per request; nothing else does, but
// tests that stand in for the engine.
func Begin(ctx context.Context, out IO) (r *Request, end func()) {
	if ctx == nil {
		ctx = context.Background()
	}
	r = &Request{ctx: ctx, io: out}
	prev := running.Swap(r)
	var once sync.Once
	return r, func() {
		once.Do(func() { running.CompareAndSwap(r, prev) })
	}
}

// Running returns the running request, or nil when none runs (between
// cells, in tests, in a plain Go program that uses gocl's packages).
func Running() *Request { return running.Load() }

// Current returns the running request's context, or context.Background()
// when no request runs. Compiled helpers that wait (an OpenCL event, a long
// loop in Go) select on Current().Done(), so that an interrupt reaches them.
func Current() context.Context { return Running().Context() }

// Context returns the request's context, cancelled when the user interrupts
// it; context.Background() on a nil Request.
func (r *Request) Context() context.Context {
	if r == nil {
		return context.Background()
	}
	return r.ctx
}

// Flush delivers what the request has written to fds 1 and 2 so far.
func (r *Request) Flush() {
	if r != nil && r.io.Flush != nil {
		r.io.Flush()
	}
}

// Stream delivers text written to stdout or stderr (name) to the innermost
// capture in effect, else to the sink.
func (r *Request) Stream(name, text string) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if c := r.capturer(); c != nil {
		c.Stream(name, text)
		return
	}
	if r.io.Sink != nil {
		r.io.Sink.Stream(name, text)
	}
}

// Display delivers a display message, after what was printed before it,
// to the innermost capture in effect that takes it, else to the sink.
func (r *Request) Display(m cellio.Message) {
	if r == nil {
		return
	}
	r.Flush()
	r.mu.Lock()
	defer r.mu.Unlock()
	if c := r.capturer(); c != nil && c.Display(m) {
		return
	}
	if r.io.Sink != nil {
		r.io.Sink.Display(m)
	}
}

// errNoSink is Input's error on a request without a sink.
var errNoSink = errors.New("stdin: no cell is running (input is only available while a cell runs)")

// Input asks the request's sink for a line of input (input_request).
func (r *Request) Input(prompt string, password bool) (string, error) {
	if r == nil || r.io.Sink == nil {
		return "", errNoSink
	}
	return r.io.Sink.Input(prompt, password)
}

var (
	commMu       sync.Mutex // serializes CommSink calls, over all requests
	commDropOnce sync.Once  // says once that a sink cannot carry comms
)

// Comm sends a kernel-side comm message through the request's sink, and
// reports whether the sink carries comm messages (a cellio.CommSink).
// A sink that does not drops it, with a note in the log the first time.
func (r *Request) Comm(m cellio.CommMessage) bool {
	if r == nil {
		return false
	}
	cs, ok := r.io.Sink.(cellio.CommSink)
	if !ok {
		commDropOnce.Do(func() {
			if r.io.Log != nil {
				fmt.Fprintf(r.io.Log, "gocl: widget and comm messages are dropped: the sink of this run (%T) has no "+
					"Comm method (engine.CommSink), so widgets cannot reach the page\n", r.io.Sink)
			}
		})
		return false
	}
	commMu.Lock()
	defer commMu.Unlock()
	cs.Comm(m)
	return true
}

// Capture sends what the request prints and displays to c until end is
// called (calling it again does nothing). Captures nest: the innermost one
// receives the output. What was printed before either end goes where it
// was going then. On a nil Request it does nothing.
func (r *Request) Capture(c Capturer) (end func()) {
	if r == nil {
		return func() {}
	}
	r.Flush()
	r.capMu.Lock()
	r.captures = append(r.captures, c)
	r.capMu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			r.Flush()
			r.capMu.Lock()
			defer r.capMu.Unlock()
			for i := len(r.captures) - 1; i >= 0; i-- {
				if r.captures[i] == c {
					r.captures = append(r.captures[:i], r.captures[i+1:]...)
					break
				}
			}
		})
	}
}

// capturer returns the innermost capture in effect, or nil.
func (r *Request) capturer() Capturer {
	r.capMu.Lock()
	defer r.capMu.Unlock()
	if n := len(r.captures); n > 0 {
		return r.captures[n-1]
	}
	return nil
}
