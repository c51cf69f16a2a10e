package cellvalue

import (
	"cmp"
	"reflect"
	"slices"
)

// printValue is fmt's printValue over a typed value.
func (p *printer) printValue(x val, verb rune, depth int) {
	if x.t != nil && (x.t.Kind == Basic || x.t.Kind == Other) {
		x.t = nil
	}
	x = unwrapStored(x)
	if !fits(x.v, x.t) {
		x.t = nil
	}
	v := x.v
	st := structural(x.t)
	if v.IsValid() && (v.Kind() == reflect.Interface || st != nil && st.Kind == Interface) {
		inner := resolveValue(v, x.ro)
		if !inner.v.IsValid() {
			if p.sharpV {
				p.buf = append(p.buf, typeString(x)...)
				p.buf = append(p.buf, "(nil)"...)
			} else {
				p.buf = append(p.buf, "<nil>"...)
			}
			return
		}
		p.printValue(inner, verb, depth+1)
		return
	}
	if depth > 0 && v.IsValid() && p.canInterface(x) {
		p.cur, p.curSet = x, true
		if p.handleMethods(x, verb) {
			return
		}
	}
	p.cur, p.curSet = x, v.IsValid()

	switch k := v.Kind(); k {
	case reflect.Invalid:
		if depth == 0 {
			p.buf = append(p.buf, "<invalid reflect.Value>"...)
		} else if verb == 'v' {
			p.buf = append(p.buf, "<nil>"...)
		} else {
			p.badVerb(verb)
		}
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128, reflect.String:
		if !verbOK(k, verb) {
			p.badVerb(verb)
			return
		}
		p.leaf(verb, plain(v), k)
	case reflect.Map:
		var kt, et *Type
		if st != nil && st.Kind == Map {
			kt, et = st.Key, st.Elem
		}
		if p.sharpV {
			p.buf = append(p.buf, typeString(x)...)
			if v.IsNil() {
				p.buf = append(p.buf, "(nil)"...)
				return
			}
			p.buf = append(p.buf, '{')
		} else {
			p.buf = append(p.buf, "map["...)
		}
		for i, key := range sortedKeys(v) {
			if i > 0 {
				if p.sharpV {
					p.buf = append(p.buf, ", "...)
				} else {
					p.buf = append(p.buf, ' ')
				}
			}
			p.printValue(val{v: key, t: kt, ro: x.ro}, verb, depth+1)
			p.buf = append(p.buf, ':')
			p.printValue(val{v: v.MapIndex(key), t: et, ro: x.ro}, verb, depth+1)
		}
		if p.sharpV {
			p.buf = append(p.buf, '}')
		} else {
			p.buf = append(p.buf, ']')
		}
	case reflect.Struct:
		if p.sharpV {
			p.buf = append(p.buf, typeString(x)...)
		}
		p.buf = append(p.buf, '{')
		typed := st != nil && st.Kind == Struct
		for i := 0; i < v.NumField(); i++ {
			if i > 0 {
				if p.sharpV {
					p.buf = append(p.buf, ", "...)
				} else {
					p.buf = append(p.buf, ' ')
				}
			}
			f := val{v: v.Field(i), ro: x.ro}
			name := v.Type().Field(i).Name
			if typed {
				sf := st.Fields[i]
				name, f.t, f.ro = sf.Name, sf.Type, x.ro || !sf.Exported
			}
			if (p.plusV || p.sharpV) && name != "" {
				p.buf = append(p.buf, name...)
				p.buf = append(p.buf, ':')
			}
			p.printValue(f, verb, depth+1)
		}
		p.buf = append(p.buf, '}')
	case reflect.Array, reflect.Slice:
		var et *Type
		if st != nil && (st.Kind == Slice || st.Kind == Array) {
			et = st.Elem
		}
		switch verb {
		case 's', 'q', 'x', 'X':
			if v.Type().Elem().Kind() == reflect.Uint8 {
				b := make([]byte, v.Len())
				for i := range b {
					b[i] = byte(v.Index(i).Uint())
				}
				p.buf = appendf(p.buf, p.directive(verb), b)
				return
			}
		}
		if p.sharpV {
			p.buf = append(p.buf, typeString(x)...)
			if k == reflect.Slice && v.IsNil() {
				p.buf = append(p.buf, "(nil)"...)
				return
			}
			p.buf = append(p.buf, '{')
		} else {
			p.buf = append(p.buf, '[')
		}
		for i := 0; i < v.Len(); i++ {
			if i > 0 {
				if p.sharpV {
					p.buf = append(p.buf, ", "...)
				} else {
					p.buf = append(p.buf, ' ')
				}
			}
			p.printValue(val{v: v.Index(i), t: et, ro: x.ro}, verb, depth+1)
		}
		if p.sharpV {
			p.buf = append(p.buf, '}')
		} else {
			p.buf = append(p.buf, ']')
		}
	case reflect.Pointer:
		if depth == 0 && v.UnsafePointer() != nil {
			switch e := v.Elem(); e.Kind() {
			case reflect.Array, reflect.Slice, reflect.Struct, reflect.Map:
				var et *Type
				if st != nil && st.Kind == Pointer {
					et = st.Elem
				}
				p.buf = append(p.buf, '&')
				p.printValue(val{v: e, t: et, ro: x.ro}, verb, depth+1)
				return
			}
		}
		p.fmtPointer(x, verb)
	case reflect.Chan, reflect.Func, reflect.UnsafePointer:
		p.fmtPointer(x, verb)
	default:
		p.buf = append(p.buf, '?')
		p.buf = append(p.buf, v.Type().String()...)
		p.buf = append(p.buf, '?')
	}
}

func (p *printer) fmtPointer(x val, verb rune) {
	p.cur, p.curSet = x, x.v.IsValid()
	var u uint64
	switch x.v.Kind() {
	case reflect.Chan, reflect.Func, reflect.Map, reflect.Pointer, reflect.Slice, reflect.UnsafePointer:
		u = uint64(uintptr(x.v.UnsafePointer()))
	default:
		p.badVerb(verb)
		return
	}
	switch verb {
	case 'v':
		if p.sharpV {
			p.buf = append(p.buf, '(')
			p.buf = append(p.buf, typeString(x)...)
			p.buf = append(p.buf, ")("...)
			if u == 0 {
				p.buf = append(p.buf, "nil"...)
			} else {
				p.fmt0x64(u, true)
			}
			p.buf = append(p.buf, ')')
		} else if u == 0 {
			p.padNil()
		} else {
			p.fmt0x64(u, !p.sharp)
		}
	case 'p':
		p.fmt0x64(u, !p.sharp)
	case 'b', 'o', 'd', 'x', 'X':
		p.buf = appendf(p.buf, p.directive(verb), u)
	default:
		p.badVerb(verb)
	}
}

// sortedKeys orders a map's keys as fmt does (internal/fmtsort); raw keys
// order as the real keys do, since a cell type has its underlying shape.
func sortedKeys(m reflect.Value) []reflect.Value {
	keys := make([]reflect.Value, 0, m.Len())
	it := m.MapRange()
	for it.Next() {
		keys = append(keys, it.Key())
	}
	slices.SortStableFunc(keys, compareKeys)
	return keys
}

func compareKeys(a, b reflect.Value) int {
	if a.Type() != b.Type() {
		return -1
	}
	switch a.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return cmp.Compare(a.Int(), b.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return cmp.Compare(a.Uint(), b.Uint())
	case reflect.String:
		return cmp.Compare(a.String(), b.String())
	case reflect.Float32, reflect.Float64:
		return cmp.Compare(a.Float(), b.Float())
	case reflect.Complex64, reflect.Complex128:
		x, y := a.Complex(), b.Complex()
		if c := cmp.Compare(real(x), real(y)); c != 0 {
			return c
		}
		return cmp.Compare(imag(x), imag(y))
	case reflect.Bool:
		switch x, y := a.Bool(), b.Bool(); {
		case x == y:
			return 0
		case x:
			return 1
		}
		return -1
	case reflect.Pointer, reflect.UnsafePointer, reflect.Chan:
		if c, ok := nilCompare(a, b); ok && a.Kind() == reflect.Chan {
			return c
		}
		return cmp.Compare(a.Pointer(), b.Pointer())
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if c := compareKeys(a.Field(i), b.Field(i)); c != 0 {
				return c
			}
		}
		return 0
	case reflect.Array:
		for i := 0; i < a.Len(); i++ {
			if c := compareKeys(a.Index(i), b.Index(i)); c != 0 {
				return c
			}
		}
		return 0
	case reflect.Interface:
		if c, ok := nilCompare(a, b); ok {
			return c
		}
		ta, tb := reflect.ValueOf(a.Elem().Type()), reflect.ValueOf(b.Elem().Type())
		if c := cmp.Compare(ta.Pointer(), tb.Pointer()); c != 0 {
			return c
		}
		return compareKeys(a.Elem(), b.Elem())
	}
	return 0
}

func nilCompare(a, b reflect.Value) (int, bool) {
	if a.IsNil() {
		if b.IsNil() {
			return 0, true
		}
		return -1, true
	}
	if b.IsNil() {
		return 1, true
	}
	return 0, false
}
