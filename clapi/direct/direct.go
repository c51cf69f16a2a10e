// Package direct registers, with gocl's yaegi, direct callers for the
// compiled functions a cell calls in its timed loops: cl.EnqueueCopy (and
// every function of its signature) and the clock, time.Now and time.Since.
// A cell's call of one of them then skips reflect.Value.Call, whose code
// and data are cold after a wait (issue 21: the cell's own work in a
// pinned non-blocking write). Import it for its side effect before the
// interpreter compiles a cell:
//
//	import _ "github.com/seed43a1e1ab/gocl/clapi/direct"
//
// A caller takes its arguments only when their types are exactly those of
// the signature; anything else (an interface value holding the queue, say)
// goes through reflect.Value.Call as before, so a cell sees the same
// results and the same panics either way.
package direct

import (
	"reflect"
	"time"
	"unsafe"

	"github.com/traefik/yaegi/interp"

	"github.com/seed43a1e1ab/gocl/clapi"
)

// copyFunc is cl.EnqueueCopy's signature.
type copyFunc = func(*clapi.Queue, any, any, ...clapi.Option) *clapi.Event

var (
	queueType  = reflect.TypeFor[*clapi.Queue]()
	optionType = reflect.TypeFor[clapi.Option]()
	timeType   = reflect.TypeFor[time.Time]()
)

func init() {
	interp.RegisterDirectCall(reflect.TypeFor[copyFunc](), callCopy)
	interp.RegisterDirectCall(reflect.TypeFor[func() time.Time](), callNow)
	interp.RegisterDirectCall(reflect.TypeFor[func(time.Time) time.Duration](), callSince)
}

func callCopy(fn reflect.Value) func([]reflect.Value) ([]reflect.Value, bool) {
	f, ok := fn.Interface().(copyFunc)
	if !ok {
		return nil
	}
	return func(in []reflect.Value) ([]reflect.Value, bool) {
		if len(in) < 3 || !valid(in) || in[0].Type() != queueType || !in[1].CanInterface() || !in[2].CanInterface() {
			return nil, false
		}
		for _, v := range in[3:] {
			if v.Type() != optionType {
				return nil, false
			}
		}
		var opts []clapi.Option
		if len(in) > 3 {
			opts = make([]clapi.Option, len(in)-3)
			for i, v := range in[3:] {
				opts[i] = option(v)
			}
		}
		ev := f((*clapi.Queue)(in[0].UnsafePointer()), in[1].Interface(), in[2].Interface(), opts...)
		return []reflect.Value{reflect.ValueOf(ev)}, true
	}
}

// valid reports whether every argument is a valid reflect.Value (yaegi
// passes a typed zero for nil; this only guards the Type calls).
func valid(in []reflect.Value) bool {
	for _, v := range in {
		if !v.IsValid() {
			return false
		}
	}
	return true
}

// option reads an Option without boxing it when the value is addressable
// (a variable, cl.NonBlocking).
func option(v reflect.Value) clapi.Option {
	if v.CanAddr() {
		return *(*clapi.Option)(unsafe.Pointer(v.UnsafeAddr()))
	}
	return v.Interface().(clapi.Option)
}

func callNow(fn reflect.Value) func([]reflect.Value) ([]reflect.Value, bool) {
	f, ok := fn.Interface().(func() time.Time)
	if !ok {
		return nil
	}
	return func(in []reflect.Value) ([]reflect.Value, bool) {
		if len(in) != 0 {
			return nil, false
		}
		return []reflect.Value{reflect.ValueOf(f())}, true
	}
}

func callSince(fn reflect.Value) func([]reflect.Value) ([]reflect.Value, bool) {
	f, ok := fn.Interface().(func(time.Time) time.Duration)
	if !ok {
		return nil
	}
	return func(in []reflect.Value) ([]reflect.Value, bool) {
		if len(in) != 1 || !valid(in) || in[0].Type() != timeType {
			return nil, false
		}
		var t time.Time
		if in[0].CanAddr() {
			t = *(*time.Time)(unsafe.Pointer(in[0].UnsafeAddr()))
		} else if in[0].CanInterface() {
			t = in[0].Interface().(time.Time)
		} else {
			return nil, false
		}
		return []reflect.Value{reflect.ValueOf(f(t))}, true
	}
}
