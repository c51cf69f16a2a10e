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

// goclRecvBlanks returns the generators of the targets of the comma-ok
// receive n (`v, ok = <-c`), where a blank target (_) is a fresh value of
// the right type. yaegi evaluated `_` in an assignment as whatever frame
// slot it names, so `_, _ = <-c` or `_, ok = <-c` stopped with
// "reflect.Set: value of type int is not assignable to type chan int".
func goclRecvBlanks(n *node, vchan, vres, vok func(*frame) reflect.Value) (func(*frame) reflect.Value, func(*frame) reflect.Value) {
	if isBlank(n.anc.child[0]) {
		vres = func(f *frame) reflect.Value { return reflect.New(vchan(f).Type().Elem()).Elem() }
	}
	if isBlank(n.anc.child[1]) {
		vok = func(*frame) reflect.Value { return reflect.New(reflect.TypeOf(false)).Elem() }
	}
	return vres, vok
}
