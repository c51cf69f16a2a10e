// Command plain is the comparison for bench/compiled: the loop of the
// compiled-cell benchmark in a plain compiled Go program, timed the same way
// (the fastest of -runs calls on the same data).
//
//	go run ./bench/compiled/plain -n 100000000 -runs 5
package main

import (
	"flag"
	"fmt"
	"sort"
	"time"

	"github.com/seed43a1e1ab/gocl/clapi/hostmath"
)

// Loop is the benchmark's loop, written exactly as in the compiled cell.
func Loop(xs []float64) float64 {
	s := 0.0
	for i := range xs {
		s += xs[i] * xs[i]
	}
	return s
}

func main() {
	n := flag.Int("n", 100_000_000, "float64 elements")
	runs := flag.Int("runs", 5, "timed calls")
	flag.Parse()
	xs := hostmath.Random(*n)
	var ts []float64
	var r float64
	for i := 0; i < *runs; i++ {
		t := time.Now()
		r = Loop(xs)
		ts = append(ts, time.Since(t).Seconds())
	}
	sort.Float64s(ts)
	fmt.Printf("%.6f %g\n", ts[0], r)
}
