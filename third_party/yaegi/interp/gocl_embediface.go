// gocl patch: this file is gocl's own (see PATCHES.md).

package interp

import "reflect"

// goclEmbeddedIfaces returns, by field index, the fields of struct type t
// (or of the struct t points to) that embed an interface type with the
// method name.
//
// yaegi marks a struct's reflect field Anonymous only when it is the
// struct's only field (golang/go#15924), so in struct{ Namer; x int } the
// embedded interface is a plain field to reflect, and a call of its
// promoted method (w.Name()) stopped with "invalid interface value": the
// method lookup searched only Anonymous fields for the interface value.
func goclEmbeddedIfaces(t *itype, name string) map[int]bool {
	for t != nil && (t.cat == linkedT || t.cat == ptrT) {
		t = t.val
	}
	if t == nil || t.cat != structT {
		return nil
	}
	var res map[int]bool
	for i, f := range t.field {
		if !f.embed || f.typ == nil || f.typ.underlying().cat != interfaceT {
			continue
		}
		if _, ok := f.typ.methods()[name]; !ok {
			continue
		}
		if res == nil {
			res = map[int]bool{}
		}
		res[i] = true
	}
	return res
}

// goclEmbeddedMethod returns the method name of the field of struct value v
// at index, the path lookupBinMethod found to an embedded field that has
// it, or the zero Value.
//
// methodByName followed that path only through a pointer, and reflect does
// not promote the methods of a field it does not mark Anonymous (see
// above): so struct{ io.Reader; name string } passed by value to compiled
// code as an io.Reader (io.ReadAll(r)) stopped with "method not found:
// Read". A nil interface field yields the zero Value, as before.
func goclEmbeddedMethod(v reflect.Value, name string, index []int) reflect.Value {
	if v.Kind() != reflect.Struct || !checkFieldIndex(v.Type(), index) {
		return reflect.Value{}
	}
	for _, i := range index {
		for v.Kind() == reflect.Ptr {
			if v.IsNil() {
				return reflect.Value{}
			}
			v = v.Elem()
		}
		if v.Kind() != reflect.Struct {
			return reflect.Value{}
		}
		v = v.Field(i)
	}
	if v.Kind() == reflect.Interface && v.IsNil() || v.Kind() == reflect.Ptr && v.IsNil() {
		return reflect.Value{}
	}
	return v.MethodByName(name)
}

// goclIsStructValue reports whether v is a value of the struct type t
// declares (t names it or is it), as it is, not wrapped.
//
// getConcreteValue takes a struct without methods for an emulated
// interface and returns its last set field: a struct whose methods are all
// promoted from a field reflect does not mark Anonymous has no methods to
// reflect, so namedReader{r, "x"} was replaced by "x" when it was wrapped
// for compiled code.
func goclIsStructValue(t *itype, v reflect.Value) bool {
	for t != nil && t.cat == linkedT {
		t = t.val
	}
	if t == nil || t.cat != structT || v.Kind() != reflect.Struct {
		return false
	}
	rt := t.TypeOf()
	return rt != nil && v.Type() == rt
}
