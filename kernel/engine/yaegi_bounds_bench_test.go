package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// BenchmarkBoundsCellCost measures what the bounds checks (yaegi_bounds.go)
// add to a cell's time in the engine, in a session of 60 declarations as in
// BenchmarkCellCost: a cell that indexes is type-checked for them. The
// ratios to x := 1, measured in the same run, go to bench/RESULTS.md:
//
//	go test -run '^$' -bench BenchmarkBoundsCellCost -benchtime 300x -count 3 ./kernel/engine/
func BenchmarkBoundsCellCost(b *testing.B) {
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
	for _, code := range []string{src.String(), "xs := []int{1, 2, 3}\ni := 1"} {
		if r := e.Execute(context.Background(), code, discardSink{}); r.Err != nil {
			b.Fatal(r.Err.Value)
		}
	}
	for _, c := range []struct{ name, code string }{
		{"no check (x := 1)", "x := 1"},
		{"an index, checked (y := xs[i])", "y := xs[i]"},
		{"a loop, checked (for j := range xs { s += xs[j] })", "s := 0\nfor j := range xs {\n\ts += xs[j]\n}"},
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
