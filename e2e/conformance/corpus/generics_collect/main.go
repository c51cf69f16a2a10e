// A := of a generic call whose type arguments come from another generic
// call (slices.Collect(slices.Values(s))): at a cell's top level in
// notebook form it was refused.
package main

import (
	"fmt"
	"maps"
	"slices"
)

type point struct{ x, y int }

func main() {
	s := []int{3, 1, 2}
	all := slices.Collect(slices.Values(s))
	slices.Sort(all)
	fmt.Println(all, s)
	keys := slices.Sorted(maps.Keys(map[string]int{"b": 2, "a": 1, "c": 3}))
	fmt.Println(keys, len(keys))
	pts := slices.Collect(slices.Values([]point{{1, 2}, {3, 4}}))
	pts[0].x = 9
	fmt.Println(pts)
	biggest := slices.Max(all)
	fmt.Println(biggest + 1)
}
