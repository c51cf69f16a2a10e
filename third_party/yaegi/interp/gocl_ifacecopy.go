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

// goclPtrHasMethods reports whether t is a pointer to a type the program
// declares with methods. Stored bare in an empty interface, such a pointer
// lost its methods: `var a any = &W{3}` then `a.(fmt.Stringer)` was false
// though W has String; wrapped, as a W is, the assertion sees them.
func goclPtrHasMethods(t *itype) bool {
	return t != nil && t.cat == ptrT && t.val != nil && t.val.cat != valueT && len(t.val.methods()) > 0
}
