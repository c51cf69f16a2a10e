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
	e := benchSession(b, "type E struct{ s string }\nfunc (e *E) Error() string { return e.s }",
		"p := T3{1, 2, \"x\"}\nErrX := &E{\"x\"}\nvar err error = ErrX")
	benchCells(b, e, []benchCell{
		{"no check (x := 1)", "x := 1"},
		{"checked, plain values (fmt.Println(1))", "fmt.Println(1)"},
		{"checked, a cell value (fmt.Println(p))", "fmt.Println(p)"},
		{"checked, shown (p)", "p"},
		{"checked, compares ints (y := x == x)", "y := x == x"},
		{"checked, compares an error (y := err == ErrX)", "y := err == ErrX"},
	})
}

// benchSession is an engine whose session holds 60 declarations (20 struct
// types with a String method, 20 functions) and then the extra declarations
// and the setup cell given.
func benchSession(b *testing.B, extra, setup string) *Engine {
	e, err := New(Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { e.Close() })
	var src strings.Builder
	for i := 0; i < 20; i++ {
		fmt.Fprintf(&src, "type T%d struct{ A, b int; S string }\nfunc (t T%d) String() string { return fmt.Sprint(t.A) }\n"+
			"func f%d(x int) int { s := 0; for i := 0; i < x; i++ { s += i }; return s }\n", i, i, i)
	}
	src.WriteString(extra)
	for _, code := range []string{src.String(), setup} {
		if r := e.Execute(context.Background(), code, discardSink{}); r.Err != nil {
			b.Fatal(r.Err.Value)
		}
	}
	return e
}

// benchCell is one cell a benchmark times, under a name.
type benchCell struct{ name, code string }

// benchCells times each cell as a sub-benchmark.
func benchCells(b *testing.B, e *Engine, cells []benchCell) {
	for _, c := range cells {
		b.Run(c.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if r := e.Execute(context.Background(), c.code, discardSink{}); r.Err != nil {
					b.Fatal(r.Err.Value)
				}
			}
		})
	}
}
