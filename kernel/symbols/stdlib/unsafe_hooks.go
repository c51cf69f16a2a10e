package stdlib

import (
	"reflect"

	yunsafe "github.com/traefik/yaegi/stdlib/unsafe"
)

// This file sorts after the generated unsafe.go, so its init runs after the
// table is made.
//
// unsafe's builtins (Sizeof, Alignof, Offsetof, Add) and the interpreter's
// conversion hook for unsafe.Pointer are written by hand in yaegi's
// stdlib/unsafe; they are taken from there, and the generated table of
// unsafe (the Pointer type) is laid over them.
func init() {
	for key, syms := range yunsafe.Symbols {
		if key == "github.com/traefik/yaegi/stdlib/unsafe/unsafe" {
			continue
		}
		m := Symbols[key]
		if m == nil {
			m = map[string]reflect.Value{}
			Symbols[key] = m
		}
		for name, v := range syms {
			if _, generated := m[name]; !generated {
				m[name] = v
			}
		}
	}
}
