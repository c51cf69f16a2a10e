// Package yaegiaccess is gocl's one way into yaegi's unexported state: the
// interpreter's interrupt (run id, done channel, cancellable channel
// operations) and the wrappers in which yaegi hands compiled code values of
// a cell's types (valueInterface, an interpreted func's node, the error of
// a failed type assertion).
//
// gocl read these through reflect and unsafe, in four places, each checking
// the layout it expected. Now gocl's copy of yaegi exports small accessors
// for them (third_party/yaegi/interp/gocl_access.go, listed in PATCHES.md):
// a field that a yaegi upgrade renames or retypes is a compile error there,
// and a change of what the field means fails this package's tests, one per
// accessor, which name the field. No other gocl package calls those
// accessors, and no gocl package reads yaegi's fields with unsafe.
package yaegiaccess

import (
	"reflect"

	"github.com/traefik/yaegi/interp"
)

// InterpPath is the import path of yaegi's interpreter, the package of its
// own wrapper types (valueInterface, _error, the node of a func value).
const InterpPath = "github.com/traefik/yaegi/interp"

// Arm prepares a run of i that Stop may interrupt: a fresh done channel,
// and channel operations that select on it in the code i compiles from now
// on (yaegi's fields done and cancelChan, under its mutex; yaegi reads
// cancelChan when it compiles a channel operation).
func Arm(i *interp.Interpreter) { i.ArmStop() }

// Reopen gives i a fresh, open done channel once a run that may have been
// stopped is over, so that a later Stop closes a channel that is open, and
// a closure that a goroutine of an earlier run calls does not find it closed.
func Reopen(i *interp.Interpreter) { i.ReopenDone() }

// Stop interrupts the armed run of i: every interpreted frame returns at its
// next step (or asks the stop filter, interp.SetStopFilter) and interpreted
// channel operations wake (yaegi's run id bumped, its done channel closed,
// without its lock). Call it at most once per Arm or Reopen.
func Stop(i *interp.Interpreter) { i.Stop() }

// IsValueInterface reports whether t is yaegi's valueInterface, the struct
// in which it hands compiled code some values of a cell's types (a named
// non-struct type with methods, for one) beside the node of their type.
func IsValueInterface(t reflect.Type) bool { return interp.IsValueInterface(t) }

// ValueInterfaceValue returns the value inside v, a yaegi valueInterface;
// ok is false when v is not one, or cannot be read (v came from an
// unexported field). inner may be the zero Value.
func ValueInterfaceValue(v reflect.Value) (inner reflect.Value, ok bool) {
	return interp.ValueInterfaceValue(v)
}

// Unwrap returns the value that v, a yaegi valueInterface, holds, as an
// any; ok is false when v is not one, or what it holds is not a value that
// can be handed on (invalid, or read from an unexported field).
func Unwrap(v any) (inner any, ok bool) {
	iv, ok := interp.ValueInterfaceValue(reflect.ValueOf(v))
	if !ok || !iv.IsValid() || !iv.CanInterface() {
		return nil, false
	}
	return iv.Interface(), true
}

// IsFuncNode reports whether v is an interpreted func value as yaegi hands
// it to compiled code that takes an any (its node, not a Go func).
func IsFuncNode(v any) bool { return interp.IsFuncNode(v) }

// IsRunError reports whether err is yaegi's error that carries the position
// of the node that raised it (cfgError): what a failed type assertion of
// interpreted code panics with.
func IsRunError(err error) bool { return interp.IsRunError(err) }
