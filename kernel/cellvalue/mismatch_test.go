package cellvalue_test

import (
	"encoding/json"
	"testing"

	"github.com/seed43a1e1ab/gocl/kernel/cellvalue"
)

// TestMismatchedTypesNeverPanic pairs every raw value with every other
// value's Type: the output may be the raw value's, but printing never
// panics (a cell method that panics on the wrong value is reported as fmt
// reports a panicking method), nor does encoding a method-free type.
func TestMismatchedTypesNeverPanic(t *testing.T) {
	vals := append(values(), jsonValues()...)
	for _, rv := range vals {
		raw, _, ok := cellvalue.Unbox(rv.boxed)
		if !ok {
			raw = rv.boxed
		}
		for _, tv := range vals {
			_, typ, ok := cellvalue.Unbox(tv.boxed)
			if !ok {
				continue
			}
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Errorf("raw %s as %s panicked: %v", rv.name, tv.name, r)
					}
				}()
				b := cellvalue.Box(raw, typ)
				for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%d", "%x", "%T", "%p"} {
					cellvalue.Sprintf(verb, b)
				}
				cellvalue.Sprint(b)
				if !methodsDeep(typ, map[*cellvalue.Type]bool{}) {
					cellvalue.Marshal(b)
					json.Marshal(b)
					cellvalue.Mirror(raw, typ)
				}
				if e, ok := b.(error); ok {
					cellvalue.Errorf("%w", e) // Error is called: a panic in it is printed
				}
			}()
		}
	}
}

func methodsDeep(t *cellvalue.Type, seen map[*cellvalue.Type]bool) bool {
	if t == nil || seen[t] {
		return false
	}
	seen[t] = true
	if t.Methods != nil || t.PtrMethods != nil || t.Kind == cellvalue.Interface {
		return true
	}
	for _, f := range t.Fields {
		if methodsDeep(f.Type, seen) {
			return true
		}
	}
	return methodsDeep(t.Under, seen) || methodsDeep(t.Elem, seen) || methodsDeep(t.Key, seen)
}
