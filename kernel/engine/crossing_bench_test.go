package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// BenchmarkCellCost measures the engine's time per cell in a session of 60
// declarations (20 struct types with a String method, 20 functions):
// a cell that needs no type check (x := 1), one that calls fmt with plain
// values (checked, nothing handed over), one that prints a cell type's value
// (checked, boxed), one that shows it as its result, and two comparisons
// (checked; the error's goes through __gocl_hook.Equal). bench/celltypes
// runs it; the ratios to x := 1 go to bench/RESULTS.md.
func BenchmarkCellCost(b *testing.B) {
	e, err := New(Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	var src strings.Builder
	for i := 0; i < 20; i++ {
		fmt.Fprintf(&src, "type T%d struct{ A, b int; S string }\nfunc (t T%d) String() string { return fmt.Sprint(t.A) }\n"+
			"func f%d(x int) int { s := 0; for i := 0; i < x; i++ { s += i }; return s }\n", i, i, i)
	}
	src.WriteString("type E struct{ s string }\nfunc (e *E) Error() string { return e.s }\n")
	for _, code := range []string{src.String(), "p := T3{1, 2, \"x\"}\nErrX := &E{\"x\"}\nvar err error = ErrX"} {
		if r := e.Execute(context.Background(), code, discardSink{}); r.Err != nil {
			b.Fatal(r.Err.Value)
		}
	}
	for _, c := range []struct{ name, code string }{
		{"no check (x := 1)", "x := 1"},
		{"checked, plain values (fmt.Println(1))", "fmt.Println(1)"},
		{"checked, a cell value (fmt.Println(p))", "fmt.Println(p)"},
		{"checked, shown (p)", "p"},
		{"checked, compares ints (y := x == x)", "y := x == x"},
		{"checked, compares an error (y := err == ErrX)", "y := err == ErrX"},
	} {
		b.Run(c.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if r := e.Execute(context.Background(), c.code, discardSink{}); r.Err != nil {
					b.Fatal(r.Err.Value)
				}
			}
		})
	}
}
