// gocl patch: this whole file is gocl's (see ../PATCHES.md).

package interp_test

import (
	"reflect"
	"testing"

	"github.com/traefik/yaegi/interp"
)

type directSig = func(int, ...string) int

// TestDirectCall checks that a call of a compiled function whose type has a
// direct caller goes through it, with the variadic arguments one by one,
// that a caller's refusal falls back to reflect.Value.Call, and that calls
// compiled with the direct calls off do not use it.
func TestDirectCall(t *testing.T) {
	direct := 0
	interp.RegisterDirectCall(reflect.TypeOf(directSig(nil)), func(fn reflect.Value) func([]reflect.Value) ([]reflect.Value, bool) {
		f := fn.Interface().(directSig)
		return func(in []reflect.Value) ([]reflect.Value, bool) {
			if in[0].Int() < 0 {
				return nil, false // refuse: reflect.Value.Call makes the call
			}
			direct++
			var rest []string
			for _, v := range in[1:] {
				rest = append(rest, v.String())
			}
			return []reflect.Value{reflect.ValueOf(f(int(in[0].Int()), rest...))}, true
		}
	})
	defer interp.SetDirectCalls(true)
	i := interp.New(interp.Options{})
	if err := i.Use(interp.Exports{"d/d": {"F": reflect.ValueOf(func(n int, s ...string) int { return n + 10*len(s) })}}); err != nil {
		t.Fatal(err)
	}
	if _, err := i.Eval(`import "d"`); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		src         string
		want        int64
		direct, off bool
	}{
		{"d.F(1, \"a\", \"b\")", 21, true, false},
		{"d.F(2)", 2, true, false},
		{"d.F(-1, \"a\")", 9, false, false},              // refused: reflect.Value.Call
		{"d.F(3, []string{\"a\"}...)", 13, false, false}, // CallSlice: reflect
		{"d.F(4, \"a\")", 14, false, true},               // compiled with the direct calls off
	} {
		interp.SetDirectCalls(!c.off)
		before := direct
		v, err := i.Eval(c.src)
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		if v.Int() != c.want {
			t.Errorf("%s = %d, want %d", c.src, v.Int(), c.want)
		}
		if got := direct > before; got != c.direct {
			t.Errorf("%s: direct call made: %v, want %v", c.src, got, c.direct)
		}
	}
}
