package assist

import (
	"reflect"
	"strings"
)

// yaegi builds the reflect type of an interpreted struct with
// reflect.StructOf, which accepts exported field names only, so an unexported
// field f is stored as Xf. unmangle undoes that renaming in text showing
// values (%+v: "{A:1 Xb:x}") or types ("struct { A int; Xb string }") of t,
// so that inspection shows the names the user wrote. An exported field
// whose name is X and a lower-case word (Xray) looks just like a renamed
// one and is shown without its X, as completion shows it (see fieldName).
func unmangle(t reflect.Type, s string) string {
	names := map[string]bool{}
	mangledFields(t, names, map[reflect.Type]bool{})
	if len(names) == 0 {
		return s
	}
	var pairs []string
	for n := range names {
		x := "X" + n
		pairs = append(pairs,
			"{"+x+":", "{"+n+":", " "+x+":", " "+n+":", // values
			"{ "+x+" ", "{ "+n+" ", "; "+x+" ", "; "+n+" ") // types
	}
	return strings.NewReplacer(pairs...).Replace(s)
}

// mangledFields adds to names the unexported field names (without the X)
// of the interpreted struct types reachable from t.
func mangledFields(t reflect.Type, names map[string]bool, seen map[reflect.Type]bool) {
	if t == nil || seen[t] {
		return
	}
	seen[t] = true
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Chan:
		mangledFields(t.Elem(), names, seen)
	case reflect.Map:
		mangledFields(t.Key(), names, seen)
		mangledFields(t.Elem(), names, seen)
	case reflect.Struct:
		if t.Name() != "" { // a compiled type: its names are its own
			return
		}
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if n := fieldName(f.Name); n != f.Name && f.PkgPath == "" {
				names[n] = true
			}
			mangledFields(f.Type, names, seen)
		}
	}
}
