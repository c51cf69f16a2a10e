package cellvalue

import (
	"reflect"
	"strings"
	"sync"

	"github.com/seed43a1e1ab/gocl/kernel/internal/yaegiaccess"
)

// yaegiPkg is the import path of yaegi's interpreter, whose wrapper types
// must never be printed as they are.
const yaegiPkg = "github.com/traefik/yaegi"

// resolveValue turns a value found in an interface position into a typed
// value: a box gives its own raw value and type, the Resolver names a cell
// value's dynamic type, and yaegi's wrappers are opened when it cannot.
func resolveValue(v reflect.Value, ro bool) val {
	var w any
	for i := 0; i < 8; i++ {
		for v.IsValid() && v.Kind() == reflect.Interface {
			if v.IsNil() {
				return val{ro: ro}
			}
			v = v.Elem()
		}
		if !v.IsValid() {
			return val{ro: ro}
		}
		if v.CanInterface() {
			a := v.Interface()
			if b := boxOf(a); b != nil {
				return val{v: b.raw, t: b.t, ro: ro}
			}
			if r := resolver.Load(); r != nil {
				if raw, t, ok := (*r)(a); ok {
					if b := boxOf(raw); b != nil {
						return val{v: b.raw, t: b.t, ro: ro}
					}
					rv := reflect.ValueOf(raw)
					if t != nil && t.Kind == Basic {
						t = nil
					}
					if t != nil && t.Kind == Interface {
						v = rv
						continue
					}
					return val{v: rv, t: t, ro: ro}
				}
			}
		}
		inner, ok := openWrapper(v)
		if !ok {
			return val{v: v, ro: ro, w: w}
		}
		if w == nil && v.Type().NumField() > 0 && v.Type().Field(0).Name == "IValue" && v.CanInterface() {
			w = v.Interface()
		}
		v = inner
	}
	return val{v: v, ro: ro, w: w}
}

// resolveError turns an error that an interpreted method returned into one
// that compiled errors functions can walk: a yaegi wrapper of a cell error
// type becomes its box.
func resolveError(err error) error {
	if err == nil || boxOf(err) != nil {
		return err
	}
	x := resolveValue(reflect.ValueOf(err), false)
	if x.t != nil && x.v.IsValid() {
		if e, ok := newBox(x.v, x.t).(error); ok {
			return e
		}
	}
	return err
}

// unwrapStored opens an interface that holds a value of a non-interface
// static type (yaegi keeps some values, those of recursive types, in
// interfaces); a nil one becomes a nil of the type's kind.
func unwrapStored(x val) val {
	if x.t == nil || !x.v.IsValid() || x.v.Kind() != reflect.Interface {
		return x
	}
	st := structural(x.t)
	if st != nil && st.Kind == Interface {
		return x
	}
	if !x.v.IsNil() {
		x.v = x.v.Elem()
		return x
	}
	x.v = reflect.Value{}
	if st != nil {
		switch st.Kind {
		case Pointer:
			x.v = reflect.Zero(reflect.TypeOf((*struct{})(nil)))
		case Slice:
			x.v = reflect.Zero(reflect.TypeOf([]struct{}(nil)))
		case Map:
			x.v = reflect.Zero(reflect.TypeOf(map[struct{}]struct{}(nil)))
		}
	}
	return x
}

// openWrapper returns the value inside a yaegi wrapper: the IValue field of
// the generated wrappers (interp._error, fmt's _fmt_Stringer...) or the value
// of an interp.valueInterface.
func openWrapper(v reflect.Value) (reflect.Value, bool) {
	t := v.Type()
	if !isYaegiType(t) || t.Kind() != reflect.Struct {
		return v, false
	}
	if t.NumField() > 0 && t.Field(0).Name == "IValue" && t.Field(0).Type.Kind() == reflect.Interface {
		return v.Field(0), true
	}
	if inner, ok := yaegiaccess.ValueInterfaceValue(v); ok {
		return inner, true
	}
	return v, false
}

func isYaegiType(t reflect.Type) bool {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t != nil && strings.HasPrefix(t.PkgPath(), yaegiPkg)
}

var walkCache sync.Map // reflect.Type -> bool

// needsWalk reports whether a compiled type can hold values this package
// must resolve: an interface anywhere inside it, or a yaegi type.
func needsWalk(t reflect.Type) bool {
	if v, ok := walkCache.Load(t); ok {
		return v.(bool)
	}
	r := needsWalkRec(t, map[reflect.Type]bool{})
	walkCache.Store(t, r)
	return r
}

func needsWalkRec(t reflect.Type, seen map[reflect.Type]bool) bool {
	if seen[t] {
		return false
	}
	seen[t] = true
	if isYaegiType(t) {
		return true
	}
	switch t.Kind() {
	case reflect.Interface:
		return true
	case reflect.Pointer, reflect.Slice, reflect.Array:
		return needsWalkRec(t.Elem(), seen)
	case reflect.Map:
		return needsWalkRec(t.Key(), seen) || needsWalkRec(t.Elem(), seen)
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			if needsWalkRec(t.Field(i).Type, seen) {
				return true
			}
		}
	}
	return false
}
