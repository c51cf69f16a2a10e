// gocl patch: this file is gocl's own (see PATCHES.md, "Type assertions to interfaces").

package interp

import "reflect"

// goclAssertBare answers x.(I), I an interface the program declares (or an
// interface literal), where x holds a value of a compiled type bare, not in
// yaegi's valueInterface: errors.New's result in an error, errors.Join's.
// yaegi answered false for every such value (`e.(interface{ Error() string
// })` was false), a silent wrong answer. The value implements I when each
// of I's methods is one of its methods with the same signature. On success
// the result (when wanted) is stored wrapped, as yaegi stores a value in
// an interface the program declares, and it reports true.
func goclAssertBare(v reflect.Value, typ *itype, withResult bool, value0 func(*frame) reflect.Value, f *frame) bool {
	for v.IsValid() && v.Kind() == reflect.Interface {
		if v.IsNil() {
			return false
		}
		v = v.Elem()
	}
	if !v.IsValid() {
		return false
	}
	if _, ok := v.Interface().(valueInterface); ok {
		return false
	}
	for name, sig := range typ.methods() {
		m := v.MethodByName(name)
		if !m.IsValid() || m.Type().String() != sig {
			return false
		}
	}
	if withResult {
		value0(f).Set(reflect.ValueOf(valueInterface{&node{kind: basicLit, typ: valueTOf(v.Type())}, v}))
	}
	return true
}

// goclZeroOnFail makes the comma-ok assertion n (v, ok := x.(T)) store T's
// zero value in v when it fails, as Go does; yaegi left v as it was, so
// `s, ok = y.(fmt.Stringer)` after an earlier success kept the old s.
// Only where the status is assigned (not to _), which is how it knows.
func goclZeroOnFail(n *node, on bool, value0, value1 func(*frame) reflect.Value) {
	if !on || value0 == nil || value1 == nil {
		return
	}
	exec := n.exec
	n.exec = func(f *frame) bltn {
		next := exec(f)
		if !value1(f).Bool() {
			d := value0(f)
			d.Set(reflect.Zero(d.Type()))
		}
		return next
	}
}

// goclOpenIValue returns the valueInterface inside v when v holds the
// wrapper yaegi makes for a compiled interface (a struct whose first field
// is IValue): `var s fmt.Stringer = T{}` holds one, and s.(Namer) must see
// T's methods, not the wrapper's.
func goclOpenIValue(v reflect.Value) reflect.Value {
	c := v
	for c.IsValid() && c.Kind() == reflect.Interface && !c.IsNil() {
		c = c.Elem()
	}
	if !c.IsValid() || c.Kind() != reflect.Struct || c.NumField() == 0 || c.Type().Field(0).Name != "IValue" {
		return v
	}
	if vi, ok := c.Field(0).Interface().(valueInterface); ok {
		return reflect.ValueOf(vi)
	}
	return v
}
