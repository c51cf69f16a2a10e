package engine

import "testing"

// TestMinMaxBuiltins checks Go 1.21's min and max, which yaegi v0.16.1 lacks
// and the engine defines, against what the Go compiler gives.
func TestMinMaxBuiltins(t *testing.T) {
	e := newEngine(t)
	cases := map[string]string{
		"min(3, 1, 2)":                           "1",
		"max(3, 1, 2)":                           "3",
		"min(2.5, 1.5)":                          "1.5",
		`max("b", "a", "c")`:                     `"c"`,
		"n := 7\nmin(n, 4)":                      "4",
		"var u uint8 = 200\nmax(u, 100)":         "200",
		"math.IsNaN(min(1.0, math.NaN(), 2))":    "true",
		"math.IsNaN(max(math.NaN(), 1.0))":       "true",
		"func f() int { return max(2, 5) }\nf()": "5",
	}
	for code, want := range cases {
		got, _ := ok(t, e, code)
		expect(t, code, got, want)
	}
	// A cell may still use the names for its own things.
	got, _ := ok(t, e, "min := 3\nmin + 1")
	expect(t, "a variable named min", got, "4")
	got, _ = ok(t, e, "func max(a, b int) int { if a > b { return a }; return b }\nmax(1, 9)")
	expect(t, "a func named max", got, "9")
	// They are builtins, not the user's declarations.
	e2 := newEngine(t)
	if _, found := e2.Scope().Globals["min"]; found {
		t.Error("min is listed among the user's declarations")
	}
	fails(t, e2, `min(1, "a")`) // mixed types are a compile error, as in Go
}
