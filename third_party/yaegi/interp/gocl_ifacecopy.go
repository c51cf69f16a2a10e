// gocl patch: this file is gocl's own (see PATCHES.md).

package interp

import "reflect"

// goclCopyValue returns a copy of v when v is an addressable struct or
// array: the value an interface holds.
//
// In Go, converting a variable to an interface copies its value: with
// `var g Getter = v`, a later v.Inc() does not change g.Get(). yaegi
// wrapped the variable's own reflect.Value, addressable storage of the
// frame, so the interface saw every later change of the variable (a
// silent wrong answer).
func goclCopyValue(v reflect.Value) reflect.Value {
	if !v.IsValid() || !v.CanAddr() {
		return v
	}
	switch v.Kind() {
	case reflect.Struct, reflect.Array:
		c := reflect.New(v.Type()).Elem()
		c.Set(v)
		return c
	}
	return v
}
