package engine

import "testing"

// BenchmarkBoundsCellCost measures what the bounds checks (yaegi_bounds.go)
// add to a cell's time in the engine, in a session of 60 declarations as in
// BenchmarkCellCost: a cell that indexes is type-checked for them. The
// ratios to x := 1, measured in the same run, go to bench/RESULTS.md:
//
//	go test -run '^$' -bench BenchmarkBoundsCellCost -benchtime 300x -count 3 ./kernel/engine/
func BenchmarkBoundsCellCost(b *testing.B) {
	e := benchSession(b, "", "xs := []int{1, 2, 3}\ni := 1")
	benchCells(b, e, []benchCell{
		{"no check (x := 1)", "x := 1"},
		{"an index, checked (y := xs[i])", "y := xs[i]"},
		{"a loop, checked (for j := range xs { s += xs[j] })", "s := 0\nfor j := range xs {\n\ts += xs[j]\n}"},
	})
}
