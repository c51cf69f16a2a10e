// gocl patch: this file is gocl's own (see PATCHES.md).

package interp

import "reflect"

// goclAddressable returns v, or a settable copy of it when v is not.
//
// A receive stores its value in its frame slot, which for `x := <-c` (or
// `x = <-c`) is the variable itself: reflect's received value is not
// settable, so any later assignment to x (x = 7, x++, x, y = y, x)
// stopped with "reflect.Value.Set using unaddressable value".
func goclAddressable(v reflect.Value) reflect.Value {
	if !v.IsValid() || v.CanSet() {
		return v
	}
	c := reflect.New(v.Type()).Elem()
	c.Set(v)
	return c
}
