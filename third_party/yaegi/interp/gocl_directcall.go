// gocl patch: this whole file is gocl's (see ../PATCHES.md).

package interp

import (
	"reflect"
	"sync"
	"sync/atomic"
)

// A call of a compiled function goes through reflect.Value.Call: the
// arguments packed into a slice of reflect.Values, a variadic tail copied
// into a new slice, the call's frame laid out from reflect's cache, the
// results copied out. Warm that costs a microsecond; right after the
// calling thread waited (a cell's next copy after its last one's Wait) the
// code and data it touches are cold, and it costs several (gocl's
// bench/RESULTS.md, issue 21). For the few signatures an embedder calls in
// its users' hot loops it can register a direct caller: a function that
// asserts the compiled function to its Go type once, when the call is
// compiled, and then calls it as compiled code does.

// DirectCaller makes the direct call of fn, a compiled function of the
// type it was registered for. The returned function gets the arguments as
// reflect.Value.Call would (the variadic ones one by one) and returns the
// results and true; it returns false, having called nothing, for
// arguments it does not take as they are (a type it does not expect), and
// the call then goes through reflect.Value.Call.
type DirectCaller func(fn reflect.Value) func(in []reflect.Value) ([]reflect.Value, bool)

var directCalls struct {
	sync.RWMutex
	by  map[reflect.Type]DirectCaller
	off atomic.Bool
}

// RegisterDirectCall registers a direct caller for compiled functions of
// type t (a func type). It applies to calls compiled after it; register
// before the first Eval.
func RegisterDirectCall(t reflect.Type, d DirectCaller) {
	directCalls.Lock()
	defer directCalls.Unlock()
	if directCalls.by == nil {
		directCalls.by = map[reflect.Type]DirectCaller{}
	}
	directCalls.by[t] = d
}

// SetDirectCalls turns the direct calls on (the default) or off for calls
// compiled after it, so that a benchmark can compare both in one process.
func SetDirectCalls(on bool) { directCalls.off.Store(!on) }

// directCall returns a callFn for callBin that calls fn, a compiled
// function known when the call is compiled, directly; nil when its type has
// no direct caller.
func directCall(fn reflect.Value) func(reflect.Value, []reflect.Value) []reflect.Value {
	if directCalls.off.Load() || !fn.IsValid() || fn.Kind() != reflect.Func || fn.IsNil() {
		return nil
	}
	directCalls.RLock()
	d := directCalls.by[fn.Type()]
	directCalls.RUnlock()
	if d == nil {
		return nil
	}
	call := d(fn)
	if call == nil {
		return nil
	}
	return func(v reflect.Value, in []reflect.Value) []reflect.Value {
		if out, ok := call(in); ok {
			return out
		}
		return v.Call(in)
	}
}
