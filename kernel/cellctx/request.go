package cellctx

import (
	"reflect"
	"runtime"
)

// An interrupt is for the code the engine's current request runs (a cell's
// statement, a widget callback, a comm handler), not for goroutines a cell
// started: those keep running, as a Python thread survives
// KeyboardInterrupt. The engine runs each request on a goroutine of its own
// that starts in Run; InRequest tells code that sees an interrupt which kind
// of goroutine it is on.

// Run calls f. The engine starts each request's goroutine in it: go Run(f).
//
//go:noinline
func Run(f func()) {
	f()
}

// runName is Run's name as the runtime reports it.
var runName = runtime.FuncForPC(reflect.ValueOf(Run).Pointer()).Name()

// InRequest reports whether the calling goroutine is one the engine started
// for a request (its stack starts in Run). It walks the whole stack, so it
// is for the rare moment an interrupt was seen, not for hot paths.
func InRequest() bool {
	buf := make([]uintptr, 128)
	n := 0
	for {
		n = runtime.Callers(2, buf)
		if n < len(buf) {
			break
		}
		buf = make([]uintptr, 4*len(buf))
	}
	// The bottom of the stack is runtime.goexit, then the goroutine's
	// first function.
	for i := n - 1; i >= 0 && i >= n-3; i-- {
		if f := runtime.FuncForPC(buf[i] - 1); f != nil && f.Name() == runName {
			return true
		}
	}
	return false
}
