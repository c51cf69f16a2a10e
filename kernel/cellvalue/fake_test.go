package cellvalue_test

// A fake engine: it turns real Go values of the types declared in these
// tests into what yaegi holds for them (structs as reflect.StructOf types
// with "X"-prefixed unexported fields and no embedding, named non-struct
// types as their underlying type, cell values in interfaces as wrappers),
// describes their types with cellvalue.Type, and gives Methods that turn the
// raw receiver back into the real value and call the real method. The
// oracle of every test is fmt, errors or encoding/json on the real values.

import (
	"encoding"
	"encoding/json"
	"fmt"
	"reflect"
	"sync"
	"unsafe"

	"github.com/seed43a1e1ab/gocl/kernel/cellvalue"
)

var (
	thisPkg   = reflect.TypeOf(fake{}).PkgPath()
	errorT    = reflect.TypeOf((*error)(nil)).Elem()
	anyT      = reflect.TypeOf((*any)(nil)).Elem()
	stringerT = reflect.TypeOf((*fmt.Stringer)(nil)).Elem()
)

// fakeErr is the fake of yaegi's interp._error: a cell value in an error.
type fakeErr struct {
	IValue any
	real   reflect.Type
	f      *fake
}

func (e fakeErr) Error() string {
	return e.f.fromRaw(reflect.ValueOf(e.IValue), e.real).Interface().(error).Error()
}

// valueIface is the fake of interp.valueInterface: a cell value in an any.
type valueIface struct {
	raw  any
	real reflect.Type
}

type fake struct {
	mu     sync.Mutex
	types  map[reflect.Type]*cellvalue.Type
	realOf map[*cellvalue.Type]reflect.Type
	raws   map[reflect.Type]reflect.Type
	busy   map[reflect.Type]bool
	ptrs   map[uintptr]reflect.Value // raw pointer -> real pointer
	rptrs  map[uintptr]reflect.Value // real pointer -> raw pointer
}

func newFake() *fake {
	return &fake{types: map[reflect.Type]*cellvalue.Type{}, realOf: map[*cellvalue.Type]reflect.Type{},
		raws: map[reflect.Type]reflect.Type{}, busy: map[reflect.Type]bool{},
		ptrs: map[uintptr]reflect.Value{}, rptrs: map[uintptr]reflect.Value{}}
}

var theFake = newFake()

// rawNode is yaegi's raw type for Node: yaegi patches a recursive struct's
// field to point to the struct itself, which reflect.StructOf cannot do.
type rawNode struct {
	V    int
	Next *rawNode
}

func init() { theFake.raws[reflect.TypeOf(Node{})] = reflect.TypeOf(rawNode{}) }

func init() { cellvalue.SetResolver(theFake.resolve) }

func (f *fake) resolve(v any) (any, *cellvalue.Type, bool) {
	switch w := v.(type) {
	case fakeErr:
		return w.IValue, f.typeOf(w.real), true
	case *valueIface:
		return w.raw, f.typeOf(w.real), true
	}
	return nil, nil, false
}

func involvesLocal(t reflect.Type, seen map[reflect.Type]bool) bool {
	if seen[t] {
		return false
	}
	seen[t] = true
	if t.Name() != "" && t.PkgPath() == thisPkg {
		return true
	}
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array:
		return involvesLocal(t.Elem(), seen)
	case reflect.Map:
		return involvesLocal(t.Key(), seen) || involvesLocal(t.Elem(), seen)
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			if involvesLocal(t.Field(i).Type, seen) {
				return true
			}
		}
	case reflect.Interface:
		return t != errorT && t != anyT
	}
	return false
}

func local(t reflect.Type) bool { return involvesLocal(t, map[reflect.Type]bool{}) }

// hasIface reports whether values of t can hold cell values behind interfaces.
func hasIface(t reflect.Type) bool {
	if local(t) {
		return true
	}
	switch t.Kind() {
	case reflect.Interface:
		return true
	case reflect.Pointer, reflect.Slice, reflect.Array:
		return hasIface(t.Elem())
	case reflect.Map:
		return hasIface(t.Key()) || hasIface(t.Elem())
	}
	return false
}

var basics = map[reflect.Kind]reflect.Type{}

func init() {
	for _, v := range []any{false, 0, int8(0), int16(0), int32(0), int64(0), uint(0), uint8(0), uint16(0),
		uint32(0), uint64(0), uintptr(0), float32(0), float64(0), complex64(0), complex128(0), ""} {
		basics[reflect.TypeOf(v).Kind()] = reflect.TypeOf(v)
	}
}

func (f *fake) rawType(t reflect.Type) reflect.Type {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.rawTypeLocked(t)
}

func (f *fake) rawTypeLocked(t reflect.Type) reflect.Type {
	if r, ok := f.raws[t]; ok {
		return r
	}
	if !hasIface(t) {
		return t
	}
	var r reflect.Type
	switch t.Kind() {
	case reflect.Struct:
		f.busy[t] = true
		fields := make([]reflect.StructField, t.NumField())
		for i := range fields {
			sf := t.Field(i)
			name := sf.Name
			if !sf.IsExported() {
				name = "X" + name
			}
			fields[i] = reflect.StructField{Name: name, Type: f.rawTypeLocked(sf.Type), Tag: sf.Tag}
		}
		delete(f.busy, t)
		r = reflect.StructOf(fields)
	case reflect.Pointer:
		if f.busy[t.Elem()] {
			return anyT // a recursive type: yaegi keeps it in an interface
		}
		r = reflect.PointerTo(f.rawTypeLocked(t.Elem()))
	case reflect.Slice:
		r = reflect.SliceOf(f.rawTypeLocked(t.Elem()))
	case reflect.Array:
		r = reflect.ArrayOf(t.Len(), f.rawTypeLocked(t.Elem()))
	case reflect.Map:
		r = reflect.MapOf(f.rawTypeLocked(t.Key()), f.rawTypeLocked(t.Elem()))
	case reflect.Interface:
		r = anyT
		if t.Implements(errorT) {
			r = errorT
		}
	default:
		r = basics[t.Kind()]
	}
	f.raws[t] = r
	return r
}

// open returns v without reflect's read-only mark (tests read unexported fields).
func open(v reflect.Value) reflect.Value {
	if v.CanInterface() {
		return v
	}
	if v.CanAddr() {
		return reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
	}
	c := reflect.New(v.Type()).Elem()
	reflect.NewAt(v.Type(), unsafe.Pointer(c.UnsafeAddr())).Elem().Set(reflect.NewAt(v.Type(), unsafe.Pointer(&v)).Elem())
	return c
}

func settable(v reflect.Value) reflect.Value {
	if v.CanSet() {
		return v
	}
	return reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
}

// toRaw converts a real value of static type t to yaegi's representation.
func (f *fake) toRaw(v reflect.Value, t reflect.Type) reflect.Value {
	rt := f.rawType(t)
	if rt == t && t.Kind() != reflect.Interface {
		return open(v)
	}
	out := reflect.New(rt).Elem()
	switch t.Kind() {
	case reflect.Interface:
		if v.IsNil() {
			return out
		}
		dyn := open(v.Elem())
		if !local(dyn.Type()) {
			out.Set(dyn)
			return out
		}
		raw := f.toRaw(dyn, dyn.Type())
		if rt == errorT {
			out.Set(reflect.ValueOf(fakeErr{IValue: raw.Interface(), real: dyn.Type(), f: f}))
		} else {
			out.Set(reflect.ValueOf(&valueIface{raw: raw.Interface(), real: dyn.Type()}))
		}
	case reflect.Struct:
		if v.CanAddr() {
			v = open(v)
		} else {
			c := reflect.New(t).Elem()
			c.Set(open(v))
			v = c
		}
		for i := 0; i < t.NumField(); i++ {
			settable(out.Field(i)).Set(f.toRaw(open(v.Field(i)), t.Field(i).Type))
		}
	case reflect.Pointer:
		if v.IsNil() {
			return out
		}
		f.mu.Lock()
		p, ok := f.rptrs[v.Pointer()]
		f.mu.Unlock()
		if !ok {
			pt := rt
			if rt == anyT {
				pt = reflect.PointerTo(f.rawType(t.Elem()))
			}
			p = reflect.New(pt.Elem())
			f.mu.Lock()
			f.rptrs[v.Pointer()], f.ptrs[p.Pointer()] = p, v
			f.mu.Unlock()
			p.Elem().Set(f.toRaw(v.Elem(), t.Elem()))
		}
		out.Set(p)
	case reflect.Slice:
		if v.IsNil() {
			return out
		}
		s := reflect.MakeSlice(rt, v.Len(), v.Len())
		for i := 0; i < v.Len(); i++ {
			s.Index(i).Set(f.toRaw(v.Index(i), t.Elem()))
		}
		out.Set(s)
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			out.Index(i).Set(f.toRaw(v.Index(i), t.Elem()))
		}
	case reflect.Map:
		if v.IsNil() {
			return out
		}
		m := reflect.MakeMap(rt)
		it := v.MapRange()
		for it.Next() {
			m.SetMapIndex(f.toRaw(it.Key(), t.Key()), f.toRaw(it.Value(), t.Elem()))
		}
		out.Set(m)
	default:
		out.Set(open(v).Convert(rt))
	}
	return out
}

// fromRaw converts a raw value back to the real value of type t.
func (f *fake) fromRaw(raw reflect.Value, t reflect.Type) reflect.Value {
	if f.rawType(t) == t && t.Kind() != reflect.Interface {
		return raw
	}
	out := reflect.New(t).Elem()
	if raw.Kind() == reflect.Interface && t.Kind() != reflect.Interface {
		if raw.IsNil() {
			return out
		}
		raw = raw.Elem()
	}
	switch t.Kind() {
	case reflect.Interface:
		if raw.Kind() == reflect.Interface {
			if raw.IsNil() {
				return out
			}
			raw = raw.Elem()
		}
		switch w := raw.Interface().(type) {
		case fakeErr:
			out.Set(f.fromRaw(reflect.ValueOf(w.IValue), w.real))
		case *valueIface:
			out.Set(f.fromRaw(reflect.ValueOf(w.raw), w.real))
		default:
			if r, rt, ok := cellvalue.Unbox(w); ok {
				out.Set(f.fromRaw(reflect.ValueOf(r), f.realOf[rt]))
			} else {
				out.Set(raw)
			}
		}
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			settable(out.Field(i)).Set(f.fromRaw(raw.Field(i), t.Field(i).Type))
		}
	case reflect.Pointer:
		if raw.IsNil() {
			return out
		}
		f.mu.Lock()
		p, ok := f.ptrs[raw.Pointer()]
		busy := f.busy[reflect.PointerTo(raw.Type())]
		f.mu.Unlock()
		if !ok {
			p = reflect.New(t.Elem())
			f.mu.Lock()
			f.ptrs[raw.Pointer()], f.rptrs[p.Pointer()] = p, raw
			f.mu.Unlock()
			ok = false
		}
		if !busy {
			// The raw pointee may have changed (a decode): refresh the real one.
			f.mu.Lock()
			f.busy[reflect.PointerTo(raw.Type())] = true
			f.mu.Unlock()
			p.Elem().Set(f.fromRaw(raw.Elem(), t.Elem()))
			f.mu.Lock()
			delete(f.busy, reflect.PointerTo(raw.Type()))
			f.mu.Unlock()
		}
		out.Set(p)
	case reflect.Slice:
		if raw.IsNil() {
			return out
		}
		s := reflect.MakeSlice(t, raw.Len(), raw.Len())
		for i := 0; i < raw.Len(); i++ {
			s.Index(i).Set(f.fromRaw(raw.Index(i), t.Elem()))
		}
		out.Set(s)
	case reflect.Array:
		for i := 0; i < raw.Len(); i++ {
			out.Index(i).Set(f.fromRaw(raw.Index(i), t.Elem()))
		}
	case reflect.Map:
		if raw.IsNil() {
			return out
		}
		m := reflect.MakeMap(t)
		it := raw.MapRange()
		for it.Next() {
			m.SetMapIndex(f.fromRaw(it.Key(), t.Key()), f.fromRaw(it.Value(), t.Elem()))
		}
		out.Set(m)
	default:
		out.Set(raw.Convert(t))
	}
	return out
}

// typeOf describes a real type as the engine would.
func (f *fake) typeOf(t reflect.Type) *cellvalue.Type {
	f.mu.Lock()
	if d, ok := f.types[t]; ok {
		f.mu.Unlock()
		return d
	}
	d := &cellvalue.Type{String: t.String()}
	f.types[t], f.realOf[d] = d, t
	f.mu.Unlock()
	switch {
	case !hasIface(t):
		d.Kind = cellvalue.Basic
	case t.Name() != "" && t.PkgPath() == thisPkg && t.Kind() != reflect.Interface:
		d.Kind, d.Name = cellvalue.Named, t.String()
		d.Under = f.structure(t)
		d.Methods = f.methods(t)
		d.PtrMethods = f.methods(reflect.PointerTo(t))
	case t.Kind() == reflect.Interface:
		d.Kind = cellvalue.Interface
		d.Satisfied = func(dyn *cellvalue.Type) bool {
			f.mu.Lock()
			rt := f.realOf[dyn]
			f.mu.Unlock()
			return rt != nil && rt.Implements(t)
		}
	default:
		*d = *f.structure(t)
		d.String = t.String()
		if t.Kind() == reflect.Pointer && t.Elem().Name() != "" && t.Elem().PkgPath() == thisPkg {
			d.Methods = f.methods(t)
		}
	}
	return d
}

// structure describes the shape of t, without its name.
func (f *fake) structure(t reflect.Type) *cellvalue.Type {
	d := &cellvalue.Type{String: t.String()}
	switch t.Kind() {
	case reflect.Struct:
		d.Kind = cellvalue.Struct
		for i := 0; i < t.NumField(); i++ {
			sf := t.Field(i)
			d.Fields = append(d.Fields, cellvalue.Field{Name: sf.Name, Exported: sf.IsExported(),
				Embedded: sf.Anonymous, Tag: string(sf.Tag), Type: f.typeOf(sf.Type)})
		}
	case reflect.Pointer:
		d.Kind, d.Elem = cellvalue.Pointer, f.typeOf(t.Elem())
	case reflect.Slice:
		d.Kind, d.Elem = cellvalue.Slice, f.typeOf(t.Elem())
	case reflect.Array:
		d.Kind, d.Elem, d.Len = cellvalue.Array, f.typeOf(t.Elem()), t.Len()
	case reflect.Map:
		d.Kind, d.Key, d.Elem = cellvalue.Map, f.typeOf(t.Key()), f.typeOf(t.Elem())
	default:
		d.Kind = cellvalue.Basic
	}
	return d
}

// methods gives the methods of t's method set as closures over raw receivers.
func (f *fake) methods(t reflect.Type) *cellvalue.Methods {
	m := &cellvalue.Methods{}
	real := func(raw reflect.Value) any { return f.fromRaw(raw, t).Interface() }
	some := false
	if t.Implements(stringerT) {
		m.String, some = func(raw reflect.Value) string { return real(raw).(fmt.Stringer).String() }, true
	}
	if t.Implements(errorT) {
		m.Error, some = func(raw reflect.Value) string { return real(raw).(error).Error() }, true
	}
	if t.Implements(reflect.TypeOf((*fmt.GoStringer)(nil)).Elem()) {
		m.GoString, some = func(raw reflect.Value) string { return real(raw).(fmt.GoStringer).GoString() }, true
	}
	if t.Implements(reflect.TypeOf((*fmt.Formatter)(nil)).Elem()) {
		m.Format, some = func(raw reflect.Value, s fmt.State, verb rune) { real(raw).(fmt.Formatter).Format(s, verb) }, true
	}
	if t.Implements(reflect.TypeOf((*interface{ Unwrap() error })(nil)).Elem()) {
		m.Unwrap, some = func(raw reflect.Value) error {
			return f.cellErr(real(raw).(interface{ Unwrap() error }).Unwrap())
		}, true
	}
	if t.Implements(reflect.TypeOf((*interface{ Unwrap() []error })(nil)).Elem()) {
		m.UnwrapMulti, some = func(raw reflect.Value) []error {
			var out []error
			for _, e := range real(raw).(interface{ Unwrap() []error }).Unwrap() {
				out = append(out, f.cellErr(e))
			}
			return out
		}, true
	}
	if t.Implements(reflect.TypeOf((*interface{ Is(error) bool })(nil)).Elem()) {
		m.Is, some = func(raw reflect.Value, target error) bool {
			return real(raw).(interface{ Is(error) bool }).Is(f.realErr(target))
		}, true
	}
	if t.Implements(reflect.TypeOf((*json.Marshaler)(nil)).Elem()) {
		m.MarshalJSON, some = func(raw reflect.Value) ([]byte, error) { return real(raw).(json.Marshaler).MarshalJSON() }, true
	}
	if t.Implements(reflect.TypeOf((*encoding.TextMarshaler)(nil)).Elem()) {
		m.MarshalText, some = func(raw reflect.Value) ([]byte, error) {
			return real(raw).(encoding.TextMarshaler).MarshalText()
		}, true
	}
	if t.Implements(reflect.TypeOf((*json.Unmarshaler)(nil)).Elem()) {
		m.UnmarshalJSON, some = func(raw reflect.Value, data []byte) error {
			r := real(raw)
			err := r.(json.Unmarshaler).UnmarshalJSON(data)
			raw.Elem().Set(f.toRaw(reflect.ValueOf(r).Elem(), t.Elem()))
			return err
		}, true
	}
	if t.Implements(reflect.TypeOf((*encoding.TextUnmarshaler)(nil)).Elem()) {
		m.UnmarshalText, some = func(raw reflect.Value, data []byte) error {
			r := real(raw)
			err := r.(encoding.TextUnmarshaler).UnmarshalText(data)
			raw.Elem().Set(f.toRaw(reflect.ValueOf(r).Elem(), t.Elem()))
			return err
		}, true
	}
	if !some {
		return nil
	}
	return m
}

// cellErr is what an interpreted method returning a real error gives compiled code.
func (f *fake) cellErr(e error) error {
	if e == nil {
		return nil
	}
	v := reflect.New(errorT).Elem()
	v.Set(reflect.ValueOf(e))
	r := f.toRaw(v, errorT)
	if r.IsNil() {
		return nil
	}
	return r.Interface().(error)
}

// realErr is the real error behind a box or a fake wrapper.
func (f *fake) realErr(e error) error {
	v := reflect.New(errorT).Elem()
	if e != nil {
		v.Set(reflect.ValueOf(e))
	}
	r := f.fromRaw(v, errorT)
	if r.IsNil() {
		return nil
	}
	return r.Interface().(error)
}

// box is what the rewritten cell passes for v, a value of static type T.
func box[T any](v T) any {
	t := reflect.TypeOf((*T)(nil)).Elem()
	rv := reflect.New(t).Elem()
	rv.Set(reflect.ValueOf(&v).Elem())
	raw := theFake.toRaw(rv, t)
	var a any
	if raw.IsValid() && !(raw.Kind() == reflect.Interface && raw.IsNil()) {
		a = raw.Interface()
	}
	return cellvalue.Box(a, theFake.typeOf(t))
}

// rawOf is what compiled code gets today, without a box.
func rawOf[T any](v T) any {
	b := box(v)
	if r, _, ok := cellvalue.Unbox(b); ok {
		return r
	}
	return b
}
