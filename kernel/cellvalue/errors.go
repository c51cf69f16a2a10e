package cellvalue

import (
	"errors"
	"reflect"
)

// cellOf returns the raw value and type of a cell value: a box, or a yaegi
// wrapper (or other value) that the Resolver attributes to a cell type.
func cellOf(e any) (reflect.Value, *Type, bool) {
	if e == nil {
		return reflect.Value{}, nil, false
	}
	if b := boxOf(e); b != nil {
		return b.raw, b.t, true
	}
	x := resolveValue(reflect.ValueOf(e), false)
	if x.t != nil && x.v.IsValid() {
		return x.v, x.t, true
	}
	if x.w != nil && x.v.IsValid() {
		return x.v, nil, true // a wrapper no Resolver named: its raw value, type unknown
	}
	return reflect.Value{}, nil, false
}

// sameValue reports whether err and target are the same cell value: equal
// raw values of matching types. Either side may be a box or a yaegi wrapper.
func sameValue(err, target any) bool {
	rv, rt, ok1 := cellOf(err)
	tv, tt, ok2 := cellOf(target)
	if !ok1 || !ok2 || rt != nil && tt != nil && !typesMatch(rt, tt) || rt == nil && tt == nil {
		return false
	}
	return rawEqual(rv, tv)
}

func rawEqual(a, b reflect.Value) (eq bool) {
	if a.Type() != b.Type() || !a.Type().Comparable() {
		return false
	}
	defer func() {
		if recover() != nil {
			eq = false
		}
	}()
	return a.Equal(b)
}

// walkable turns a yaegi wrapper of a cell error into its box, so that the
// cell type's Unwrap, Is and As methods are seen.
func walkable(err error) error { return resolveError(err) }

// Is is errors.Is for errors that may be boxes or yaegi wrappers of cell
// values: a cell value matches target when both are the same value of the
// same cell type.
func Is(err, target error) bool {
	if err == nil || target == nil {
		return err == target
	}
	targetComparable := reflect.TypeOf(target).Comparable()
	if raw, t, ok := cellOf(target); ok && t != nil {
		targetComparable = raw.Type().Comparable()
	}
	return is(err, target, targetComparable)
}

func is(err, target error, targetComparable bool) bool {
	for {
		err = walkable(err)
		if targetComparable && ifaceEqual(err, target) || sameValue(err, target) {
			return true
		}
		if x, ok := err.(interface{ Is(error) bool }); ok && x.Is(target) {
			return true
		}
		switch x := err.(type) {
		case interface{ Unwrap() error }:
			err = x.Unwrap()
			if err == nil {
				return false
			}
		case interface{ Unwrap() []error }:
			for _, err := range x.Unwrap() {
				if is(err, target, targetComparable) {
					return true
				}
			}
			return false
		default:
			return false
		}
	}
}

// ifaceEqual is err == target without the panic of == on an incomparable
// dynamic value (Go would panic there too; a cell reports false).
func ifaceEqual(a, b error) (eq bool) {
	defer func() {
		if recover() != nil {
			eq = false
		}
	}()
	return a == b
}

// Unwrap is errors.Unwrap; what it returns may be a box (Unbox it).
func Unwrap(err error) error {
	u, ok := walkable(err).(interface{ Unwrap() error })
	if !ok {
		return nil
	}
	return u.Unwrap()
}

// Join is errors.Join; the errors it holds stay as given (boxes print and
// compare as their cell values).
func Join(errs ...error) error { return errors.Join(errs...) }

var errorType = reflect.TypeOf((*error)(nil)).Elem()

// As is errors.As for a target whose element type may be a cell type:
// targetElem describes *target's static type (nil when it is a compiled
// type). A cell value in err's chain matches a cell targetElem of the same
// type (*target is set to its raw value), or a cell Interface targetElem
// whose Satisfied accepts it, or a compiled interface target that its box
// implements (*target is set to the box). It panics as errors.As does on a
// bad target.
func As(err error, target any, targetElem *Type) bool {
	if err == nil {
		return false
	}
	if target == nil {
		panic("errors: target cannot be nil")
	}
	val := reflect.ValueOf(target)
	typ := val.Type()
	if typ.Kind() != reflect.Pointer || val.IsNil() {
		panic("errors: target must be a non-nil pointer")
	}
	if targetElem != nil && targetElem.Kind == Basic {
		targetElem = nil
	}
	if targetElem != nil {
		isIface := targetElem.Kind == Interface || structural(targetElem) != nil && structural(targetElem).Kind == Interface
		if !isIface && (targetElem.Methods == nil || targetElem.Methods.Error == nil) {
			panic("errors: *target must be interface or implement error")
		}
	} else if te := typ.Elem(); te.Kind() != reflect.Interface && !te.Implements(errorType) {
		panic("errors: *target must be interface or implement error")
	}
	return as(err, target, val, targetElem)
}

func as(err error, target any, tv reflect.Value, te *Type) bool {
	for {
		err = walkable(err)
		if asOne(err, tv, te) {
			return true
		}
		if x, ok := err.(interface{ As(any) bool }); ok && x.As(target) {
			return true
		}
		switch x := err.(type) {
		case interface{ Unwrap() error }:
			err = x.Unwrap()
			if err == nil {
				return false
			}
		case interface{ Unwrap() []error }:
			for _, err := range x.Unwrap() {
				if err == nil {
					continue
				}
				if as(err, target, tv, te) {
					return true
				}
			}
			return false
		default:
			return false
		}
	}
}

// asOne tries to store err itself into *target.
func asOne(err error, tv reflect.Value, te *Type) bool {
	dst := tv.Elem()
	raw, rt, isCell := cellOf(err)
	if isCell && rt == nil {
		isCell = false // an unnamed wrapper is matched as the compiled value it is
	}
	switch {
	case te == nil:
		// A compiled target type: a compiled error, or a box that
		// implements the compiled interface.
		if !isCell {
			if reflect.TypeOf(err).AssignableTo(dst.Type()) {
				dst.Set(reflect.ValueOf(err))
				return true
			}
			return false
		}
		b := newBox(raw, rt)
		if dst.Kind() == reflect.Interface && reflect.TypeOf(b).Implements(dst.Type()) {
			dst.Set(reflect.ValueOf(b))
			return true
		}
		return false
	case !isCell:
		return false
	}
	st := structural(te)
	if te.Kind == Interface || st != nil && st.Kind == Interface {
		if te.Satisfied != nil && !te.Satisfied(rt) {
			return false
		}
		return store(dst, raw)
	}
	if !typesMatch(rt, te) {
		return false
	}
	return store(dst, raw)
}

func store(dst, raw reflect.Value) bool {
	switch {
	case raw.Type().AssignableTo(dst.Type()):
		dst.Set(raw)
	case raw.Type().ConvertibleTo(dst.Type()):
		dst.Set(raw.Convert(dst.Type()))
	default:
		return false
	}
	return true
}
