// gocl patch: this whole file is gocl's (see ../PATCHES.md).

package interp

import (
	"reflect"
	"sync/atomic"
)

// The embedder's fence around this package's unexported state. gocl used
// to read these fields through reflect and unsafe, which a yaegi upgrade
// could move without a compile error; here a field that moves is a compile
// error of this file, and gocl's kernel/internal/yaegiaccess tests what each
// accessor does. Nothing else in gocl reaches inside the interpreter.

// ArmStop prepares a run that Stop may interrupt, as EvalWithContext does
// before it runs: a fresh done channel, and channel operations that select
// on it (cancelChan, read when a channel operation is compiled), whatever
// the fastChan option says.
func (interp *Interpreter) ArmStop() {
	interp.mutex.Lock()
	interp.done = make(chan struct{})
	interp.cancelChan = true
	interp.mutex.Unlock()
}

// ReopenDone gives the interpreter a fresh, open done channel once a run
// that may have been stopped is over, so that a frame that takes the
// interpreter's done channel later (a closure called by a goroutine of an
// earlier run) does not find it closed.
func (interp *Interpreter) ReopenDone() {
	interp.mutex.Lock()
	interp.done = make(chan struct{})
	interp.mutex.Unlock()
}

// Stop interrupts the armed run, as EvalWithContext does when its context
// ends: it bumps the run id, so that every frame returns at its next step
// (or asks the stop filter: gocl_interrupt.go), and closes the done
// channel, which wakes channel operations. Like the unexported stop, it
// takes no lock (running frames may hold it) and must be called at most
// once per ArmStop.
func (interp *Interpreter) Stop() {
	interp.stop()
}

// RunID returns the interpreter's run id, which Stop bumps.
func (interp *Interpreter) RunID() uint64 { return atomic.LoadUint64(&interp.id) }

// IsValueInterface reports whether t is the type of the wrapper in which
// the interpreter hands compiled code some values of interpreted types (a
// node for the type, and the value: valueInterfaceType, type.go).
func IsValueInterface(t reflect.Type) bool { return t == valueInterfaceType }

// ValueInterfaceValue returns the value that v, a value of the wrapper
// IsValueInterface names, holds; ok is false when v is not one or cannot be
// read (it came from an unexported field). The value returned may be the
// zero Value.
func ValueInterfaceValue(v reflect.Value) (inner reflect.Value, ok bool) {
	if !v.IsValid() || v.Type() != valueInterfaceType || !v.CanInterface() {
		return reflect.Value{}, false
	}
	return v.Interface().(valueInterface).value, true
}

// IsFuncNode reports whether v is an interpreted function value as the
// interpreter hands it to compiled code when no function type wraps it (a
// *node).
func IsFuncNode(v any) bool {
	_, ok := v.(*node)
	return ok
}

// IsRunError reports whether err is the interpreter's own error that
// carries the position of the node that raised it (cfgError), as a failed
// type assertion of interpreted code panics with.
func IsRunError(err error) bool {
	_, ok := err.(*cfgError)
	return ok
}
