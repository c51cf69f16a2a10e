// gocl patch: this file is gocl's own (see PATCHES.md).

package interp

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
