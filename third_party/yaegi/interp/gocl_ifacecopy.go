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

// goclDetachedNode returns a node that yields the value vi holds, of vi's
// type, wherever it is evaluated.
//
// An assertion to a compiled interface (x.(fmt.Stringer)) wrapped the
// value by generating a wrapper of vi.node, the node the value was made
// at, and evaluating it in the asserting frame: in another function that
// read another slot, so `any(p).(fmt.Stringer)` (gocl rewrites the
// conversion into a call) gave a nil Stringer with ok true, or stopped with
// "call of reflect.Value.Type on zero Value".
func goclDetachedNode(vi valueInterface) *node {
	if vi.node == nil || !vi.value.IsValid() || !vi.value.CanInterface() {
		return vi.node
	}
	nn := *vi.node
	nn.kind = identExpr
	nn.sym = nil
	nn.rval = vi.value
	return &nn
}
