package cellvalue

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
)

// Decoding into a cell value goes through a mirror too: the raw value is
// copied into a compiled value with the real field names, tags and embedded
// structs, encoding/json decodes into that, and the result is copied back
// (pointers, maps and slices of the raw value are reused as json reuses
// them). Cell types with UnmarshalJSON or UnmarshalText methods receive their
// bytes after the decode; recursive types are decoded level by level.

// Unmarshal is json.Unmarshal into v, a raw value of static type t (a
// pointer type, as &x is).
func Unmarshal(data []byte, v any, t *Type) error {
	return unmarshal(func(m any) error { return json.Unmarshal(data, m) }, v, t)
}

// DecodeJSON is (*json.Decoder).Decode into v, a raw value of static type t.
func DecodeJSON(dec *json.Decoder, v any, t *Type) error {
	return unmarshal(dec.Decode, v, t)
}

type decoder struct {
	types  map[*Type]reflect.Type
	fields map[*Type][]int // struct Type -> the raw field of each mirror field
	busy   map[*Type]bool
	ptrs   map[uintptr]reflect.Value // mirror pointer -> the raw pointer it was copied from
	err    error
	path   []string // JSON names of the fields copyOut is in
}

// jsonHook takes the bytes meant for a cell type's UnmarshalJSON, or for a
// recursive type's next level.
type jsonHook struct{ data []byte }

// UnmarshalJSON keeps the bytes.
func (h *jsonHook) UnmarshalJSON(b []byte) error { h.data = append([]byte(nil), b...); return nil }

// textHook takes the text meant for a cell type's UnmarshalText.
type textHook struct {
	data []byte
	set  bool
}

// UnmarshalText keeps the text.
func (h *textHook) UnmarshalText(b []byte) error {
	h.data, h.set = append([]byte(nil), b...), true
	return nil
}

var (
	jsonHookT = reflect.TypeOf(jsonHook{})
	textHookT = reflect.TypeOf(textHook{})
)

func unmarshal(decode func(any) error, v any, t *Type) (err error) {
	if t == nil || t.Kind == Basic {
		return decode(v)
	}
	st := structural(t)
	rv := reflect.ValueOf(v)
	if st == nil || st.Kind != Pointer || rv.Kind() != reflect.Pointer {
		return errors.New("json: Unmarshal(non-pointer " + typeString(val{v: rv, t: t}) + ")")
	}
	if rv.IsNil() {
		return errors.New("json: Unmarshal(nil " + typeString(val{v: rv, t: t}) + ")")
	}
	defer func() {
		if r := recover(); r != nil {
			if re, ok := r.(rethrow); ok {
				panic(re.v)
			}
			err = fmt.Errorf("cellvalue: cannot decode JSON into %s: %v", typeString(val{t: t}), r)
		}
	}()
	d := &decoder{types: map[*Type]reflect.Type{}, fields: map[*Type][]int{}, busy: map[*Type]bool{}, ptrs: map[uintptr]reflect.Value{}}
	mt, err := d.typeFor(st.Elem, rv.Type().Elem())
	if err != nil {
		return err
	}
	m := reflect.New(mt)
	d.copyIn(m.Elem(), rv.Elem(), st.Elem)
	err = decode(m.Interface())
	d.copyOut(rv.Elem(), m.Elem(), st.Elem)
	if err == nil {
		err = d.err
	}
	return d.fixError(err, st.Elem)
}

func hasUnmarshal(ms *Methods) bool {
	return ms != nil && (ms.UnmarshalJSON != nil || ms.UnmarshalText != nil)
}

func unmarshalFn(t *Type) (fn func(reflect.Value, []byte) error, text, ptr bool) {
	for _, c := range []struct {
		ms  *Methods
		ptr bool
	}{{t.PtrMethods, true}, {t.Methods, false}} {
		if c.ms != nil && c.ms.UnmarshalJSON != nil {
			return c.ms.UnmarshalJSON, false, c.ptr
		}
	}
	for _, c := range []struct {
		ms  *Methods
		ptr bool
	}{{t.PtrMethods, true}, {t.Methods, false}} {
		if c.ms != nil && c.ms.UnmarshalText != nil {
			return c.ms.UnmarshalText, true, c.ptr
		}
	}
	return nil, false, false
}

// typeFor is the static mirror type of a position of type t, raw type rt.
func (d *decoder) typeFor(t *Type, rt reflect.Type) (reflect.Type, error) {
	if t == nil || t.Kind == Basic || t.Kind == Other {
		return rt, nil
	}
	if mt, ok := d.types[t]; ok {
		return mt, nil
	}
	if t.Kind == Named {
		if fn, text, _ := unmarshalFn(t); fn != nil {
			d.types[t] = jsonHookT
			if text {
				d.types[t] = textHookT
			}
			return d.types[t], nil
		}
	}
	st := structural(t)
	if st == nil {
		d.types[t] = rt
		return rt, nil
	}
	if !fits(reflect.Zero(rt), st) && rt.Kind() != reflect.Interface {
		return nil, errors.New("cellvalue: the raw value of " + typeString(val{t: t}) + " does not match its type")
	}
	var mt reflect.Type
	var err error
	switch st.Kind {
	case Interface:
		if s := typeString(val{t: t}); !isEmptyInterface(s) {
			return nil, errors.New("cellvalue: decoding JSON into a value of interface type " + s + " is not supported: decode into a concrete type")
		}
		mt = anyType
	case Pointer:
		if d.busy[st.Elem] || d.busy[structural(st.Elem)] {
			return jsonHookT, nil // a recursive type: its next level is decoded on its own
		}
		var e reflect.Type
		if e, err = d.typeFor(st.Elem, rt.Elem()); err == nil {
			mt = reflect.PointerTo(e)
		}
	case Slice, Array:
		var e reflect.Type
		if e, err = d.typeFor(st.Elem, rt.Elem()); err == nil {
			mt = reflect.SliceOf(e)
			if st.Kind == Array {
				mt = reflect.ArrayOf(st.Len, e)
			}
		}
	case Map:
		if st.Key != nil && (hasUnmarshal(st.Key.Methods) || hasUnmarshal(st.Key.PtrMethods)) {
			return nil, errors.New("cellvalue: decoding JSON into a map keyed by " + typeString(val{t: st.Key}) + ", a type with an UnmarshalText method, is not supported")
		}
		var e reflect.Type
		if e, err = d.typeFor(st.Elem, rt.Elem()); err == nil {
			mt = reflect.MapOf(rt.Key(), e)
		}
	case Struct:
		d.busy[t], d.busy[st] = true, true
		mt, err = d.structType(st, rt)
		delete(d.busy, t)
		delete(d.busy, st)
	default:
		mt = rt
	}
	if err != nil {
		return nil, err
	}
	d.types[t] = mt
	return mt, nil
}

func (d *decoder) structType(st *Type, rt reflect.Type) (reflect.Type, error) {
	var sfs []reflect.StructField
	var idx []int
	used := map[string]bool{}
	for i, f := range st.Fields {
		if !f.Exported && !f.Embedded {
			continue
		}
		ft, err := d.typeFor(f.Type, rt.Field(i).Type)
		if err != nil {
			return nil, err
		}
		sf := reflect.StructField{Name: f.Name, Type: ft, Tag: reflect.StructTag(f.Tag)}
		if f.Embedded {
			e := ft
			if e.Kind() == reflect.Pointer {
				e = e.Elem()
			}
			if e.Kind() != reflect.Struct || e == jsonHookT || e == textHookT {
				if !f.Exported {
					continue
				}
			} else {
				sf.Anonymous = true
				sf.Name = exportName(f.Name, used)
			}
		}
		used[sf.Name] = true
		sfs = append(sfs, sf)
		idx = append(idx, i)
	}
	d.fields[st] = idx
	return reflect.StructOf(sfs), nil
}

func (d *decoder) copyIn(m, raw reflect.Value, t *Type) {
	if !raw.IsValid() {
		return
	}
	if m.Type() == raw.Type() {
		m.Set(raw)
		return
	}
	if m.Type() == jsonHookT || m.Type() == textHookT {
		return
	}
	st := structural(t)
	switch {
	case st == nil:
	case st.Kind == Interface:
		if !raw.IsNil() && !raw.Elem().Type().AssignableTo(anyType) {
			return
		}
		if !raw.IsNil() && boxOf(raw.Elem().Interface()) == nil && !isYaegiType(raw.Elem().Type()) {
			m.Set(raw.Elem())
		}
	case st.Kind == Pointer:
		if raw.IsNil() {
			return
		}
		p := reflect.New(m.Type().Elem())
		d.ptrs[p.Pointer()] = raw
		d.copyIn(p.Elem(), raw.Elem(), st.Elem)
		m.Set(p)
	case st.Kind == Slice:
		if raw.IsNil() {
			return
		}
		m.Set(reflect.MakeSlice(m.Type(), raw.Len(), raw.Len()))
		fallthrough
	case st.Kind == Array:
		for i := 0; i < raw.Len() && i < m.Len(); i++ {
			d.copyIn(m.Index(i), raw.Index(i), st.Elem)
		}
	case st.Kind == Map:
		if raw.IsNil() {
			return
		}
		m.Set(reflect.MakeMapWithSize(m.Type(), raw.Len()))
		it := raw.MapRange()
		for it.Next() {
			e := reflect.New(m.Type().Elem()).Elem()
			d.copyIn(e, it.Value(), st.Elem)
			m.SetMapIndex(it.Key(), e)
		}
	case st.Kind == Struct:
		for j, i := range d.fields[st] {
			d.copyIn(m.Field(j), raw.Field(i), st.Fields[i].Type)
		}
	}
}

func (d *decoder) copyOut(raw, m reflect.Value, t *Type) {
	if m.Type() == raw.Type() {
		raw.Set(m)
		return
	}
	if h, ok := m.Addr().Interface().(*jsonHook); ok {
		d.hook(raw, t, h.data, h.data != nil)
		return
	}
	if h, ok := m.Addr().Interface().(*textHook); ok {
		d.hook(raw, t, h.data, h.set)
		return
	}
	st := structural(t)
	switch {
	case st == nil:
	case st.Kind == Interface:
		if m.IsNil() {
			raw.Set(reflect.Zero(raw.Type()))
		} else {
			raw.Set(m.Elem())
		}
	case st.Kind == Pointer:
		if m.IsNil() {
			raw.Set(reflect.Zero(raw.Type()))
			return
		}
		p, ok := d.ptrs[m.Pointer()]
		if !ok {
			p = reflect.New(raw.Type().Elem())
		}
		d.copyOut(p.Elem(), m.Elem(), st.Elem)
		raw.Set(p)
	case st.Kind == Slice:
		if m.IsNil() {
			raw.Set(reflect.Zero(raw.Type()))
			return
		}
		n := m.Len()
		if raw.Cap() >= n {
			raw.Set(raw.Slice(0, n))
		} else {
			raw.Set(reflect.MakeSlice(raw.Type(), n, n))
		}
		fallthrough
	case st.Kind == Array:
		for i := 0; i < m.Len() && i < raw.Len(); i++ {
			d.copyOut(raw.Index(i), m.Index(i), st.Elem)
		}
	case st.Kind == Map:
		if m.IsNil() {
			raw.Set(reflect.Zero(raw.Type()))
			return
		}
		if raw.IsNil() {
			raw.Set(reflect.MakeMapWithSize(raw.Type(), m.Len()))
		}
		it := m.MapRange()
		for it.Next() {
			e := reflect.New(raw.Type().Elem()).Elem()
			me := reflect.New(m.Type().Elem()).Elem()
			me.Set(it.Value())
			d.copyOut(e, me, st.Elem)
			raw.SetMapIndex(it.Key(), e)
		}
	case st.Kind == Struct:
		for j, i := range d.fields[st] {
			f := st.Fields[i]
			if !(f.Embedded && m.Type().Field(j).Anonymous) {
				d.path = append(d.path, jsonName(f))
			}
			d.copyOut(raw.Field(i), m.Field(j), f.Type)
			if !(f.Embedded && m.Type().Field(j).Anonymous) {
				d.path = d.path[:len(d.path)-1]
			}
		}
	}
}

// hook hands captured bytes to the cell type's method, or decodes the next
// level of a recursive type.
func (d *decoder) hook(raw reflect.Value, t *Type, data []byte, set bool) {
	if !set {
		return
	}
	var err error
	if fn, _, ptr := unmarshalFn(t); fn != nil && t.Kind == Named {
		target := raw
		if ptr {
			target = raw.Addr()
		}
		err = callUnmarshal(fn, target, data)
	} else {
		pt := &Type{Kind: Pointer, String: "*" + typeString(val{t: t}), Elem: t}
		err = Unmarshal(data, raw.Addr().Interface(), pt)
		if ue, ok := err.(*unmarshalTypeError); ok && len(d.path) > 0 {
			c := *ue
			c.segs = append(append([]string(nil), d.path...), ue.segs...)
			err = &c
		}
	}
	if err != nil && d.err == nil {
		d.err = err
	}
}

func callUnmarshal(fn func(reflect.Value, []byte) error, target reflect.Value, data []byte) error {
	ok := false
	defer func() {
		if !ok {
			panic(rethrow{recover()})
		}
	}()
	err := fn(target, data)
	ok = true
	return err
}

// unmarshalTypeError is json.UnmarshalTypeError naming the cell types.
type unmarshalTypeError struct {
	value, structName, typ string
	segs                   []string
	err                    *json.UnmarshalTypeError
}

func (e *unmarshalTypeError) Error() string {
	if e.structName != "" || len(e.segs) > 0 {
		return "json: cannot unmarshal " + e.value + " into Go struct field " + e.structName + "." + strings.Join(e.segs, ".") + " of type " + e.typ
	}
	return "json: cannot unmarshal " + e.value + " into Go value of type " + e.typ
}

// Unwrap returns encoding/json's error (whose types are the mirror's).
func (e *unmarshalTypeError) Unwrap() error { return e.err }

// fixError names the cell types in a json.UnmarshalTypeError about the
// mirror: the struct, the field path (embedded fields by their own names)
// and the value's type.
func (d *decoder) fixError(err error, root *Type) error {
	var ute *json.UnmarshalTypeError
	if _, done := err.(*unmarshalTypeError); done || err == nil || !errors.As(err, &ute) {
		return err
	}
	structName, cur := ute.Struct, root
	var segs []string
	if ute.Field != "" {
		keyStart := cur
		for _, seg := range strings.Split(ute.Field, ".") {
			st := structAt(cur)
			if st == nil {
				segs = append(segs, seg)
				continue
			}
			used := map[string]bool{}
			found := false
			for _, f := range st.Fields {
				if f.Embedded && exportName(f.Name, used) == seg {
					segs, cur, found = append(segs, f.Name), f.Type, true
					break
				}
				if (f.Exported || f.Embedded) && jsonName(f) == seg {
					segs, found = append(segs, seg), true
					structName = shortName(namedStruct(keyStart))
					cur, keyStart = f.Type, f.Type
					break
				}
			}
			if !found {
				segs = append(segs, seg)
			}
		}
	}
	typ := ute.Type.String()
	for c, i := cur, 0; c != nil && i < 16; i++ {
		if mt, ok := d.types[c]; ok && mt == ute.Type && c.Kind != Basic {
			typ = typeString(val{t: c})
			break
		}
		st := structural(c)
		if st == nil || st.Elem == nil {
			break
		}
		c = st.Elem
	}
	return &unmarshalTypeError{value: ute.Value, structName: structName, typ: typ, segs: segs, err: ute}
}

// structAt is the struct type found at t through pointers, slices, arrays and maps.
func structAt(t *Type) *Type {
	for i := 0; t != nil && i < 16; i++ {
		st := structural(t)
		if st == nil {
			return nil
		}
		if st.Kind == Struct {
			return st
		}
		t = st.Elem
	}
	return nil
}

// namedStruct is the Named type whose values the struct at t are.
func namedStruct(t *Type) *Type {
	for i := 0; t != nil && i < 16; i++ {
		if t.Kind == Named {
			if st := structural(t); st != nil && st.Kind == Struct {
				return t
			}
		}
		st := structural(t)
		if st == nil || st.Kind == Struct {
			return nil
		}
		t = st.Elem
	}
	return nil
}

// shortName is reflect.Type.Name for a Named type: no package.
func shortName(t *Type) string {
	if t == nil {
		return ""
	}
	n := t.Name
	if n == "" {
		n = t.String
	}
	head := n
	if i := strings.IndexByte(n, '['); i >= 0 {
		head = n[:i]
	}
	if i := strings.LastIndexByte(head, '.'); i >= 0 {
		return n[i+1:]
	}
	return n
}

func jsonName(f Field) string {
	tag := reflect.StructTag(f.Tag).Get("json")
	if name, _, _ := strings.Cut(tag, ","); name != "" && name != "-" {
		return name
	}
	return f.Name
}

// isEmptyInterface reports whether s spells the empty interface: "any",
// reflect's "interface {}" or go/types' "interface{}" (issue 24: that last
// spelling was refused, so json.Unmarshal into map[string]interface{}
// failed in every session that declared a type).
func isEmptyInterface(s string) bool {
	return s == "any" || strings.ReplaceAll(s, " ", "") == "interface{}"
}
