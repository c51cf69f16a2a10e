// Package cellvalue makes values of types declared in notebook cells look to
// compiled code (fmt, errors, encoding/json, text/template) exactly as the
// real Go values would.
//
// yaegi gives a cell's types no real Go type at run time: a cell struct is a
// reflect.StructOf type whose unexported fields carry an "X" prefix, a named
// non-struct type is its underlying type, and methods are invisible to
// reflect. The engine knows each value's static type (from go/types) and
// hands the value with a *Type describing that type to Box, or calls the
// drop-in replacements of this package (Printf, Errorf, errors.Is, ...)
// instead of the compiled originals. Methods declared in cells reach this
// package as plain Go funcs in Methods, so it never imports yaegi.
//
// Values that come back out of this package (Unwrap, Join, As) may contain
// boxes; the engine turns a box back into the interpreter's value with Unbox.
//
// What the engine provides:
//
//   - Box(raw, t) for each argument whose static type involves a cell type,
//     and also for arguments of interface or container-of-interface static
//     types ([]any, map[string]any, error, fmt.Stringer) when they may hold
//     cell values: yaegi hands compiled code a cell struct in an interface
//     as the raw struct itself, a named non-struct as interp.valueInterface,
//     and a pointer with methods as interp._error or another IValue wrapper.
//   - A Resolver that names the dynamic type of such values: it must know
//     the raw reflect types of cell structs (ambiguous when two cell structs
//     have the same fields) and open valueInterface and the IValue wrappers,
//     and answer ok=false for compiled values.
//   - Type.String for every Type (it is what %T, %#v and error messages
//     print), Fields with the Go names for structs, Methods with the full
//     method set (promoted methods included) of Named types and of pointers
//     to them, and PtrMethods where a pointer method is MarshalJSON,
//     MarshalText, UnmarshalJSON or UnmarshalText.
//   - Calls of Unmarshal and DecodeJSON (json.Unmarshal, Decoder.Decode)
//     with the static type of the target pointer.
//
// Without a Resolver, values are printed by their raw shape, never by
// yaegi's internals: wrappers print their IValue, with the methods the
// wrapper has.
package cellvalue

import (
	"fmt"
	"reflect"
	"sync/atomic"
)

// Kind says which of Type's fields describe a type.
type Kind uint8

const (
	// Basic is any compiled or plain type (int, string, time.Duration, error
	// values made by compiled code): its raw value is printed as fmt prints it.
	Basic Kind = iota
	// Named is a type declared in a cell: Name, String, Under, Methods.
	Named
	// Pointer is *Elem; Methods is the pointer method set when Elem is Named.
	Pointer
	// Slice is []Elem.
	Slice
	// Array is [Len]Elem.
	Array
	// Map is map[Key]Elem.
	Map
	// Struct is a struct type; Fields are in declaration order.
	Struct
	// Interface is an interface type: the dynamic value is found with the Resolver.
	Interface
	// Other is any other type (chan, func): printed as its raw value.
	Other
)

// Type describes the static Go type of a raw interpreter value.
type Type struct {
	Kind Kind
	// Name is the qualified name of a Named type: "main.Color".
	Name string
	// String is how %T and %#v print the type: "main.T", "*main.T",
	// "[]main.Pair", "map[string]main.Level", "error".
	String string
	// Under is the underlying type of a Named type.
	Under *Type
	// Elem is the element type of a Pointer, Slice, Array or Map.
	Elem *Type
	// Key is the key type of a Map.
	Key *Type
	// Len is the length of an Array.
	Len int
	// Fields are a Struct's fields; raw field i is Go field i.
	Fields []Field
	// Methods is the method set of a Named type (value receivers) or of a
	// Pointer to a Named type (both receivers), including promoted methods;
	// nil when it has none of the methods Methods lists.
	Methods *Methods
	// PtrMethods is, for a Named type, the method set of *Name: what Go
	// uses where it takes the address of a value (encoding/json on
	// addressable values, and decoding). Nil when it adds nothing to Methods.
	PtrMethods *Methods
	// Satisfied reports, for an Interface type declared in a cell, whether a
	// value of dynamic type dyn implements it (errors.As with such a target).
	// Nil means every type does (interface{}) or, for compiled interfaces,
	// that the box's own methods decide.
	Satisfied func(dyn *Type) bool
}

// Field is one field of a Struct type.
type Field struct {
	Name     string // the Go name ("hidden", not "Xhidden"); for embedded fields the type's name
	Exported bool
	Embedded bool
	Tag      string
	Type     *Type
}

// Methods are the methods of a cell type that fmt, errors and encoding/json
// call. Each is nil when the type has no such method; raw is the interpreter's
// value of the receiver.
type Methods struct {
	String, Error, GoString func(raw reflect.Value) string
	Format                  func(raw reflect.Value, s fmt.State, verb rune)
	Unwrap                  func(raw reflect.Value) error
	UnwrapMulti             func(raw reflect.Value) []error
	// Is is given the target as the caller passed it (possibly a box: Unbox it).
	Is func(raw reflect.Value, target error) bool
	// As is given the target pointer as the caller passed it.
	As                       func(raw reflect.Value, target any) bool
	MarshalJSON, MarshalText func(raw reflect.Value) ([]byte, error)
	// UnmarshalJSON and UnmarshalText are given a pointer to the raw value
	// when they are in PtrMethods (pointer receivers), the value otherwise.
	UnmarshalJSON, UnmarshalText func(raw reflect.Value, data []byte) error
}

// box is what compiled code is handed instead of a raw value: it prints as
// the real value (fmt.Formatter) and marshals as it (json.Marshaler).
type box struct {
	raw reflect.Value
	t   *Type
}

// errBox is a box of a type whose method set has Error and not Unwrap() []error.
type errBox struct{ box }

// multiErrBox is a box of a type with Error and Unwrap() []error.
type multiErrBox struct{ box }

// stringBox is a box of a type whose method set has String and not Error:
// it is a fmt.Stringer, for code that asks for one (a type switch's case).
type stringBox struct{ box }

// String calls the cell type's String method.
func (b stringBox) String() string { return b.t.Methods.String(b.raw) }

// Box returns what compiled fmt, errors and encoding/json are given instead of
// raw, a value of the static type t. It implements fmt.Formatter and
// json.Marshaler; when t's method set has Error it also implements error,
// Unwrap (matching the type's), Is and As. A nil t, a Basic t, or a box
// already, is returned as it is. For an Interface t the box is that of the
// dynamic value (found with the Resolver); nil stays nil and a compiled
// value stays itself.
func Box(raw any, t *Type) any {
	if t == nil || t.Kind == Basic || t.Kind == Other && reflect.TypeOf(raw) != nil && reflect.TypeOf(raw).Kind() != reflect.Func {
		// (A func of a cell's types is boxed for its %T alone.)
		return raw
	}
	if _, _, ok := Unbox(raw); ok {
		return raw
	}
	if st := structural(t); t.Kind == Interface || st != nil && st.Kind == Interface {
		x := resolveValue(reflect.ValueOf(raw), false)
		switch {
		case !x.v.IsValid():
			return nil
		case x.t == nil:
			return x.v.Interface()
		}
		return newBox(x.v, x.t)
	}
	v := reflect.ValueOf(raw)
	for i := 0; i < 4 && v.IsValid() && isYaegiType(v.Type()); i++ {
		inner, ok := openWrapper(v) // the engine boxed a wrapper: the raw value is inside
		if !ok {
			break
		}
		for inner.Kind() == reflect.Interface && !inner.IsNil() {
			inner = inner.Elem()
		}
		v = inner
	}
	if !v.IsValid() {
		v = unwrapStored(val{v: reflect.ValueOf(&raw).Elem(), t: t}).v // a nil pointer, slice or map of t
	}
	if !v.IsValid() || !fits(v, t) {
		return raw // not a value of t: printed, compared and encoded as the raw value it is
	}
	return newBox(v, t)
}

func newBox(raw reflect.Value, t *Type) any {
	b := box{raw: raw, t: t}
	if m := t.Methods; m != nil && m.Error != nil {
		if m.UnwrapMulti != nil {
			return &multiErrBox{b}
		}
		return &errBox{b}
	}
	if m := t.Methods; m != nil && m.String != nil {
		return &stringBox{b}
	}
	return &b
}

// Unbox returns the raw value and type of a value made by Box; ok is false
// for anything else.
func Unbox(v any) (raw any, t *Type, ok bool) {
	b := boxOf(v)
	if b == nil {
		return v, nil, false
	}
	if !b.raw.IsValid() {
		return nil, b.t, true
	}
	return b.raw.Interface(), b.t, true
}

func boxOf(v any) *box {
	switch b := v.(type) {
	case *box:
		return b
	case *errBox:
		return &b.box
	case *multiErrBox:
		return &b.box
	case *stringBox:
		return &b.box
	case stringBox:
		return &b.box
	case box:
		return &b
	case errBox:
		return &b.box
	case multiErrBox:
		return &b.box
	}
	return nil
}

// Resolver returns the raw value and dynamic type of v, a value held in an
// interface (a []any element, a field of type error, a yaegi wrapper such as
// interp._error, or interp.valueInterface). ok is false when v is not a value
// of a cell type; v is then printed as it is.
type Resolver func(v any) (raw any, t *Type, ok bool)

var resolver atomic.Pointer[Resolver]

// SetResolver installs the engine's Resolver (nil removes it). It is safe to
// call while other goroutines print.
func SetResolver(r Resolver) {
	if r == nil {
		resolver.Store(nil)
		return
	}
	resolver.Store(&r)
}

// Format prints the box as fmt prints the real value (depth 0: a box is an
// argument). Prefer this package's Printf and friends: fmt itself prints a
// box's own type for %T and its address for %p.
func (b box) Format(s fmt.State, verb rune) {
	p := newPrinter()
	defer p.free()
	p.fromState(s, verb)
	p.guard(func() { p.printArg(&b, verb) }, func() []byte { return fmt.Appendf(nil, "%v", b.raw) })
	s.Write(p.buf)
}

// Error calls the cell type's Error method.
func (b errBox) Error() string { return b.t.Methods.Error(b.raw) }

// Unwrap calls the cell type's Unwrap method (nil when it has none).
func (b errBox) Unwrap() error {
	if b.t.Methods.Unwrap == nil {
		return nil
	}
	return resolveError(b.t.Methods.Unwrap(b.raw))
}

// Is reports whether target is the same cell value, or what the cell type's Is says.
func (b errBox) Is(target error) bool { return b.box.is(target) }

// As calls the cell type's As method.
func (b errBox) As(target any) bool { return b.box.as(target) }

// Error calls the cell type's Error method.
func (b multiErrBox) Error() string { return b.t.Methods.Error(b.raw) }

// Unwrap calls the cell type's Unwrap() []error method.
func (b multiErrBox) Unwrap() []error {
	errs := b.t.Methods.UnwrapMulti(b.raw)
	out := make([]error, len(errs))
	for i, e := range errs {
		out[i] = resolveError(e)
	}
	return out
}

// Is reports whether target is the same cell value, or what the cell type's Is says.
func (b multiErrBox) Is(target error) bool { return b.box.is(target) }

// As calls the cell type's As method.
func (b multiErrBox) As(target any) bool { return b.box.as(target) }

func (b box) is(target error) bool {
	if sameValue(&b, target) {
		return true
	}
	if m := b.t.Methods; m != nil && m.Is != nil {
		return m.Is(b.raw, target)
	}
	return false
}

func (b box) as(target any) bool {
	if m := b.t.Methods; m != nil && m.As != nil {
		return m.As(b.raw, target)
	}
	return false
}

// MarshalJSON encodes the box as encoding/json encodes the real value.
func (b box) MarshalJSON() ([]byte, error) { return marshal(b.raw, b.t, "", "") }

// structural follows Named types to the type that gives the value's shape.
func structural(t *Type) *Type {
	for i := 0; t != nil && t.Kind == Named && i < 100; i++ {
		t = t.Under
	}
	if t != nil && (t.Kind == Named || t.Kind == Basic) {
		return nil
	}
	return t
}

// fits reports whether raw has the shape t describes; a value that does not
// is printed as its raw value, never trusted.
func fits(raw reflect.Value, t *Type) bool {
	if t == nil || !raw.IsValid() {
		return true
	}
	st := structural(t)
	if st == nil {
		return true
	}
	switch st.Kind {
	case Pointer:
		return raw.Kind() == reflect.Pointer
	case Slice:
		return raw.Kind() == reflect.Slice
	case Array:
		return raw.Kind() == reflect.Array && raw.Len() == st.Len
	case Map:
		return raw.Kind() == reflect.Map
	case Struct:
		return raw.Kind() == reflect.Struct && raw.NumField() == len(st.Fields)
	}
	return true
}

// typesMatch reports whether two descriptors name the same type.
func typesMatch(a, b *Type) bool {
	return a == b || (a != nil && b != nil && a.String != "" && a.String == b.String)
}
