package cellvalue

import (
	"encoding"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
)

// A mirror is a compiled copy of a raw value whose structs are
// reflect.StructOf types with the real field names and tags, so that
// reflection-driven packages (encoding/json, text/template) see what they
// would see on the real value. Cell methods that those packages call become
// small wrapper values (json) or boxes (template).

type mirrorMode uint8

const (
	forJSON mirrorMode = iota
	forTemplate
)

type mirrorer struct {
	mode   mirrorMode
	onPath map[uintptr]bool
	failed *wrapFailure
}

type wrapFailure struct {
	t      *Type
	method string
}

// Mirror returns a read-only compiled copy of raw (a value of static type t)
// for text/template and other reflection-driven code: structs get their real
// field names (unexported ones too, as unexported fields), values of
// non-struct cell types with String, Error, Format or GoString methods
// become boxes (they print as the real values), interface positions are
// resolved. Methods of struct cell types are not visible on the mirror.
func Mirror(raw any, t *Type) (out any) {
	defer func() {
		if r := recover(); r != nil {
			out = Box(raw, t)
		}
	}()
	m := &mirrorer{mode: forTemplate, onPath: map[uintptr]bool{}}
	x := argVal(Box(raw, t))
	v, err := m.value(x)
	if err != nil || !v.IsValid() {
		return Box(raw, t)
	}
	return v.Interface()
}

var (
	anyType      = reflect.TypeOf((*any)(nil)).Elem()
	marshalerT   = reflect.TypeOf((*json.Marshaler)(nil)).Elem()
	textMarshalT = reflect.TypeOf((*encoding.TextMarshaler)(nil)).Elem()
)

func hasMarshal(ms *Methods) bool {
	return ms != nil && (ms.MarshalJSON != nil || ms.MarshalText != nil)
}

func hasPrint(ms *Methods) bool {
	return ms != nil && (ms.String != nil || ms.Error != nil || ms.Format != nil || ms.GoString != nil)
}

// scalarKind reports whether a raw value of kind k is copied as it is.
func scalarKind(k reflect.Kind) bool {
	switch k {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.String:
		return true
	}
	return false
}

// plainPosition reports whether a position of type t whose raw type is rt
// can hold the raw value unchanged in the mirror.
func (m *mirrorer) plainPosition(t *Type, rt reflect.Type) bool {
	if t == nil || t.Kind == Basic {
		return !needsWalk(rt)
	}
	if t.Kind != Named || structural(t) != nil {
		return false
	}
	if m.mode == forJSON {
		return scalarKind(rt.Kind()) && !hasMarshal(t.Methods) && !hasMarshal(t.PtrMethods)
	}
	return scalarKind(rt.Kind()) && !hasPrint(t.Methods)
}

// value mirrors one typed value.
func (m *mirrorer) value(x val) (reflect.Value, error) {
	if x.t != nil && (x.t.Kind == Basic || x.t.Kind == Other) {
		x.t = nil
	}
	x = unwrapStored(x)
	v := x.v
	if !v.IsValid() {
		return reflect.Value{}, nil
	}
	if !fits(v, x.t) {
		x.t = nil
	}
	st := structural(x.t)
	if v.Kind() == reflect.Interface || st != nil && st.Kind == Interface {
		inner := resolveValue(v, false)
		if !inner.v.IsValid() {
			return reflect.Value{}, nil
		}
		return m.value(inner)
	}
	if x.t == nil {
		return m.compiled(v)
	}
	if w, ok, err := m.methods(x); ok || err != nil {
		return w, err
	}
	if st == nil {
		return v, nil
	}
	switch st.Kind {
	case Pointer:
		if v.IsNil() {
			return reflect.Value{}, nil
		}
		return m.pointer(v, x.t, st.Elem, x.ro)
	case Slice, Array:
		return m.list(v, st.Elem, x.ro)
	case Map:
		return m.mapping(v, x.t, st.Key, st.Elem, x.ro)
	case Struct:
		return m.structure(v, st, x.ro)
	}
	return v, nil
}

// methods applies the cell methods that json or template would call.
func (m *mirrorer) methods(x val) (reflect.Value, bool, error) {
	v, t := x.v, x.t
	if m.mode == forTemplate {
		if x.ro || !hasPrint(t.Methods) {
			return reflect.Value{}, false, nil
		}
		k := v.Kind()
		if k == reflect.Pointer {
			k = v.Type().Elem().Kind()
		}
		if k == reflect.Struct {
			return reflect.Value{}, false, nil
		}
		return reflect.ValueOf(newBox(v, t)), true, nil
	}
	if v.Kind() == reflect.Pointer && v.IsNil() && hasMarshal(t.Methods) {
		return reflect.Value{}, true, nil
	}
	addr := v.CanAddr() && t.PtrMethods != nil
	pick := func(f func(*Methods) func(reflect.Value) ([]byte, error)) (func() ([]byte, error), bool) {
		if addr {
			if fn := f(t.PtrMethods); fn != nil {
				a := v.Addr()
				return func() ([]byte, error) { return fn(a) }, true
			}
		}
		if t.Methods != nil {
			if fn := f(t.Methods); fn != nil {
				return func() ([]byte, error) { return fn(v) }, true
			}
		}
		return nil, false
	}
	if fn, ok := pick(func(ms *Methods) func(reflect.Value) ([]byte, error) { return ms.MarshalJSON }); ok {
		return reflect.ValueOf(&jsonWrap{fn: fn, t: t, m: m}), true, nil
	}
	if fn, ok := pick(func(ms *Methods) func(reflect.Value) ([]byte, error) { return ms.MarshalText }); ok {
		return reflect.ValueOf(&textWrap{fn: fn, t: t, m: m}), true, nil
	}
	return reflect.Value{}, false, nil
}

// compiled mirrors a compiled value, walking only into the containers that
// may hold cell values behind interfaces.
func (m *mirrorer) compiled(v reflect.Value) (reflect.Value, error) {
	rt := v.Type()
	if !needsWalk(rt) || rt.Implements(marshalerT) || rt.Implements(textMarshalT) ||
		v.CanAddr() && (reflect.PointerTo(rt).Implements(marshalerT) || reflect.PointerTo(rt).Implements(textMarshalT)) {
		return v, nil
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return reflect.Value{}, nil
		}
		return m.pointer(v, nil, nil, false)
	case reflect.Slice, reflect.Array:
		return m.list(v, nil, false)
	case reflect.Map:
		return m.mapping(v, nil, nil, nil, false)
	}
	return v, nil
}

func (m *mirrorer) pointer(v reflect.Value, t, elem *Type, ro bool) (reflect.Value, error) {
	addr := v.Pointer()
	if m.onPath[addr] {
		if m.mode == forTemplate {
			return reflect.ValueOf(Box(v.Interface(), t)), nil
		}
		return reflect.Value{}, &json.UnsupportedValueError{Value: v, Str: "encountered a cycle via " + typeString(val{v: v, t: t})}
	}
	m.onPath[addr] = true
	defer delete(m.onPath, addr)
	e, err := m.value(val{v: v.Elem(), t: elem, ro: ro})
	if err != nil || !e.IsValid() {
		return reflect.Value{}, err
	}
	p := reflect.New(e.Type())
	p.Elem().Set(e)
	return p, nil
}

func (m *mirrorer) list(v reflect.Value, elem *Type, ro bool) (reflect.Value, error) {
	if v.Kind() == reflect.Slice && v.IsNil() {
		return reflect.Zero(reflect.TypeOf([]any(nil))), nil
	}
	if m.mode == forJSON && v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.Uint8 &&
		(elem == nil || !hasMarshal(elem.Methods) && !hasMarshal(elem.PtrMethods)) && !needsWalk(v.Type().Elem()) {
		b := make([]byte, v.Len())
		for i := range b {
			b[i] = byte(v.Index(i).Uint())
		}
		return reflect.ValueOf(b), nil
	}
	out := make([]any, v.Len())
	for i := range out {
		e, err := m.value(val{v: v.Index(i), t: elem, ro: ro})
		if err != nil {
			return reflect.Value{}, err
		}
		if e.IsValid() {
			out[i] = e.Interface()
		}
	}
	return reflect.ValueOf(out), nil
}

func (m *mirrorer) mapping(v reflect.Value, t, key, elem *Type, ro bool) (reflect.Value, error) {
	if key != nil && (key.Kind == Basic || key.Kind == Other) {
		key = nil
	}
	if m.mode == forTemplate {
		if v.IsNil() {
			return reflect.Zero(reflect.MapOf(v.Type().Key(), anyType)), nil
		}
		kt := v.Type().Key()
		if !scalarKind(kt.Kind()) {
			return reflect.ValueOf(Box(v.Interface(), t)), nil
		}
		out := reflect.MakeMapWithSize(reflect.MapOf(kt, anyType), v.Len())
		it := v.MapRange()
		for it.Next() {
			e, err := m.value(val{v: it.Value(), t: elem, ro: ro})
			if err != nil {
				return reflect.Value{}, err
			}
			ev := reflect.Zero(anyType)
			if e.IsValid() {
				ev = e
			}
			out.SetMapIndex(it.Key(), ev)
		}
		return out, nil
	}
	kk := v.Type().Key().Kind()
	textKey := key != nil && key.Methods != nil && key.Methods.MarshalText != nil
	switch {
	case kk == reflect.String, textKey, key == nil && v.Type().Key().Implements(textMarshalT):
	case kk >= reflect.Int && kk <= reflect.Uintptr:
	default:
		if t == nil {
			return reflect.Value{}, &json.UnsupportedTypeError{Type: v.Type()}
		}
		return reflect.Value{}, unsupportedType(typeString(val{v: v, t: t}))
	}
	if v.IsNil() {
		return reflect.Zero(reflect.TypeOf(map[string]any(nil))), nil
	}
	out := make(map[string]any, v.Len())
	it := v.MapRange()
	for it.Next() {
		k, err := m.keyName(it.Key(), key)
		if err != nil {
			return reflect.Value{}, err
		}
		e, err := m.value(val{v: it.Value(), t: elem, ro: ro})
		if err != nil {
			return reflect.Value{}, err
		}
		out[k] = nil
		if e.IsValid() {
			out[k] = e.Interface()
		}
	}
	return reflect.ValueOf(out), nil
}

// keyName is encoding/json's resolveKeyName over a raw key.
func (m *mirrorer) keyName(k reflect.Value, key *Type) (string, error) {
	if k.Kind() == reflect.String {
		return k.String(), nil
	}
	if key != nil && key.Methods != nil && key.Methods.MarshalText != nil {
		if k.Kind() == reflect.Pointer && k.IsNil() {
			return "", nil
		}
		b, err := key.Methods.MarshalText(k)
		if err != nil {
			return "", &marshalerError{typ: typeString(val{v: k, t: key}), err: err, fn: "MarshalText"}
		}
		return string(b), nil
	}
	if tm, ok := k.Interface().(encoding.TextMarshaler); ok {
		b, err := tm.MarshalText()
		return string(b), err
	}
	b, _ := json.Marshal(k.Interface())
	return strings.Trim(string(b), `"`), nil
}

// structPlan says how a cell struct type's mirror is laid out.
type structPlan struct {
	typ    reflect.Type
	fields []planField
}

type planField struct {
	raw       int  // raw field index
	plain     bool // copy the raw value
	omitEmpty bool
	omitZero  bool
	embedded  bool // an embedded struct: its static mirror type
	ptr       bool // embedded through a pointer
}

// planCache holds the mirror layout of each struct Type; it is emptied when
// it grows past planLimit (an engine that makes a Type per call, not per
// type, costs time then, not memory).
var (
	planCache sync.Map // planKey -> *structPlan
	planCount atomic.Int64
)

const planLimit = 4096

type planKey struct {
	t    *Type
	rt   reflect.Type
	mode mirrorMode
}

func (m *mirrorer) plan(st *Type, rt reflect.Type, depth int) (*structPlan, error) {
	k := planKey{st, rt, m.mode}
	if p, ok := planCache.Load(k); ok {
		return p.(*structPlan), nil
	}
	if depth > 32 {
		return nil, errors.New("cellvalue: embedded structs nest too deep")
	}
	var sfs []reflect.StructField
	var fields []planField
	used := map[string]bool{}
	for i, f := range st.Fields {
		rft := rt.Field(i).Type
		pf := planField{raw: i}
		sf := reflect.StructField{Name: f.Name, Tag: reflect.StructTag(f.Tag)}
		opts := reflect.StructTag(f.Tag).Get("json")
		pf.omitEmpty = strings.Contains(opts, ",omitempty")
		pf.omitZero = strings.Contains(opts, ",omitzero")
		fst := structural(f.Type)
		var est *Type // the embedded struct type
		if f.Embedded && fst != nil {
			switch {
			case fst.Kind == Struct:
				est = fst
			case fst.Kind == Pointer && structural(fst.Elem) != nil && structural(fst.Elem).Kind == Struct:
				est, pf.ptr = structural(fst.Elem), true
			}
		}
		switch {
		case est != nil:
			ert := rft
			if pf.ptr {
				if rft.Kind() != reflect.Pointer {
					return nil, errors.New("cellvalue: embedded field " + f.Name + " does not match its raw value")
				}
				ert = rft.Elem()
			}
			if ert.Kind() != reflect.Struct || ert.NumField() != len(est.Fields) {
				return nil, errors.New("cellvalue: embedded field " + f.Name + " does not match its raw value")
			}
			sub, err := m.plan(est, ert, depth+1)
			if err != nil {
				return nil, err
			}
			pf.embedded = true
			sf.Anonymous = true
			sf.Type = sub.typ
			if pf.ptr {
				sf.Type = reflect.PointerTo(sub.typ)
			}
			sf.Name = exportName(f.Name, used)
		case m.mode == forJSON && !f.Exported:
			continue
		case m.plainPosition(f.Type, rft):
			pf.plain = true
			sf.Type = rft
		default:
			sf.Type = anyType
		}
		if !f.Exported && !sf.Anonymous {
			sf.PkgPath = "main"
		}
		if used[sf.Name] && !sf.Anonymous {
			return nil, errors.New("cellvalue: duplicate field " + sf.Name)
		}
		used[sf.Name] = true
		sfs = append(sfs, sf)
		fields = append(fields, pf)
	}
	p := &structPlan{typ: reflect.StructOf(sfs), fields: fields}
	if planCount.Add(1) > planLimit {
		planCache.Clear()
		planCount.Store(0)
	}
	planCache.Store(k, p)
	return p, nil
}

// exportName gives an embedded field an exported name StructOf accepts; the
// name of an embedded struct never appears in json output or templates.
func exportName(name string, used map[string]bool) string {
	r := []rune(name)
	if len(r) > 0 && unicode.IsLower(r[0]) {
		r[0] = unicode.ToUpper(r[0])
	} else if len(r) == 0 || !unicode.IsUpper(r[0]) {
		r = append([]rune("E"), r...)
	}
	n := string(r)
	for used[n] {
		n += "_"
	}
	return n
}

func (m *mirrorer) structure(v reflect.Value, st *Type, ro bool) (reflect.Value, error) {
	p, err := m.plan(st, v.Type(), 0)
	if err != nil {
		return reflect.Value{}, err
	}
	return m.fill(v, st, p, ro)
}

func (m *mirrorer) fill(v reflect.Value, st *Type, p *structPlan, ro bool) (reflect.Value, error) {
	out := reflect.New(p.typ).Elem()
	for j, pf := range p.fields {
		rf := v.Field(pf.raw)
		f := st.Fields[pf.raw]
		dst := out.Field(j)
		if !dst.CanSet() {
			dst = reflect.NewAt(dst.Type(), dst.Addr().UnsafePointer()).Elem()
		}
		switch {
		case pf.embedded:
			fst := structural(f.Type)
			est := fst
			if pf.ptr {
				if rf.IsNil() {
					continue
				}
				est = structural(fst.Elem)
				rf = rf.Elem()
			}
			sub, err := m.plan(est, rf.Type(), 0)
			if err != nil {
				return reflect.Value{}, err
			}
			e, err := m.fill(rf, est, sub, ro || !f.Exported)
			if err != nil {
				return reflect.Value{}, err
			}
			if pf.ptr {
				ptr := reflect.New(e.Type())
				ptr.Elem().Set(e)
				e = ptr
			}
			dst.Set(e)
		case pf.plain:
			dst.Set(rf)
		default:
			if m.mode == forJSON && (pf.omitEmpty && isEmptyValue(rf) || pf.omitZero && rf.IsZero()) {
				continue
			}
			e, err := m.value(val{v: rf, t: f.Type, ro: ro || !f.Exported})
			if err != nil {
				return reflect.Value{}, err
			}
			if e.IsValid() {
				dst.Set(e)
			}
		}
	}
	return out, nil
}

// isEmptyValue is encoding/json's test for omitempty, on the raw value.
func isEmptyValue(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64,
		reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}

// unsupportedType is json.UnsupportedTypeError naming a cell type.
type unsupportedType string

func (e unsupportedType) Error() string { return "json: unsupported type: " + string(e) }
