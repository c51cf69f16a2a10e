// The generic standard packages slices, maps and cmp.
package main

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
)

type person struct {
	name string
	age  int
}

func main() {
	xs := []int{5, 2, 8, 1}
	slices.Sort(xs)
	fmt.Println(xs, slices.Index(xs, 8), slices.Contains(xs, 3))
	i, found := slices.BinarySearch(xs, 5)
	fmt.Println(i, found, slices.Max(xs))
	m := map[string]int{"b": 2, "a": 1, "c": 3}
	keys := slices.Sorted(maps.Keys(m))
	fmt.Println(keys, slices.Collect(maps.Values(map[string]int{"x": 9})))
	people := []person{{"Ann", 30}, {"Bob", 25}, {"Cid", 30}}
	slices.SortStableFunc(people, func(a, b person) int { return cmp.Compare(b.age, a.age) })
	fmt.Println(people)
	words := strings.Fields("the quick brown fox")
	fmt.Println(slices.IndexFunc(words, func(w string) bool { return strings.HasPrefix(w, "b") }))
	fmt.Println(slices.Equal(slices.Clone(xs), xs), slices.Compact([]int{1, 1, 2, 2, 1}))
}
