package engine

import "testing"

// TestParallelAssignmentToInterfaceGlobals: each of these panicked in
// yaegi ("reflect.Set: value of type stdlib._fmt_Stringer is not
// assignable to type int") at a cell's top level.
func TestParallelAssignmentToInterfaceGlobals(t *testing.T) {
	e := newEngine(t)
	ok(t, e, "type S int\nfunc (s S) String() string { return \"S\" }\ntype E struct{ m string }\nfunc (e *E) Error() string { return e.m }\nconst K = 3")
	for _, c := range []struct{ code, want string }{
		{"var a, b fmt.Stringer = S(1), S(2)\nfmt.Println(a, b)", "S S\n"},
		{"var e1, e2 error = &E{\"x\"}, &E{\"y\"}\nfmt.Println(e1, e2)", "x y\n"},
		{"var g, h any\ng, h = S(1), E{\"z\"}\ng, h = h, g\nfmt.Println(g, h)", "{z} S\n"},
		{"x, y := any(S(3)), any(S(4))\nfmt.Println(x, y)", "S S\n"},
		// Untyped constants keep the variables' types.
		{"var f float64\nvar k int\nf, k = K, K\nf, k = 1.5, 2\nfmt.Println(f, k)", "1.5 2\n"},
		// An index on the left is left as it was (Go evaluates it first).
		{"xs := []int{0, 0}\ni := 0\ni, xs[i] = 1, 7\nfmt.Println(i, xs)", "1 [7 0]\n"},
	} {
		if _, r := ok(t, e, c.code); r.text("stdout") != c.want {
			t.Errorf("%s\nprinted %q, want %q (Go's)", c.code, r.text("stdout"), c.want)
		}
	}
}
