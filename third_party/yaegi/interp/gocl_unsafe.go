// gocl patch: this file is gocl's own (see PATCHES.md, "unsafe.Offsetof").

package interp

import "reflect"

// goclOffsetof returns unsafe.Offsetof(x.name) for x of type t: the offset
// of the field from the start of x, summed along the embedded structs a
// promoted field is reached through (shallowest first, as a selector finds
// it). yaegi read t.rtype, which is nil for a struct type the interpreted
// code declares, and dereferenced it. The reflect type yaegi makes for such
// a struct names its fields with exportName and does not mark embedded ones,
// so the walk goes over the itype's fields and reads only offsets from
// reflect.
func goclOffsetof(t *itype, name string) (uintptr, bool) {
	type at struct {
		typ  *itype
		base uintptr
	}
	for t != nil && t.cat == ptrT {
		t = t.val
	}
	level := []at{{t, 0}}
	for depth := 0; len(level) > 0 && depth < 16; depth++ {
		var next []at
		for _, s := range level {
			st := s.typ
			for st != nil && st.cat == linkedT {
				st = st.val
			}
			if st == nil || st.cat != structT {
				continue
			}
			rt := st.TypeOf()
			if rt == nil || rt.Kind() != reflect.Struct {
				continue
			}
			for _, f := range st.field {
				sf, ok := rt.FieldByName(exportName(f.name))
				if !ok {
					if sf, ok = rt.FieldByName(f.name); !ok {
						continue
					}
				}
				if f.name == name {
					return s.base + sf.Offset, true
				}
				if f.embed && f.typ != nil && f.typ.cat != ptrT {
					next = append(next, at{f.typ, s.base + sf.Offset})
				}
			}
		}
		level = next
	}
	// A compiled struct type: reflect knows its embedded fields.
	rt := t.TypeOf()
	if rt == nil || rt.Kind() != reflect.Struct {
		return 0, false
	}
	f, ok := rt.FieldByName(name)
	if !ok {
		return 0, false
	}
	var off uintptr
	for i := range f.Index {
		off += rt.FieldByIndex(f.Index[:i+1]).Offset
	}
	return off, true
}
