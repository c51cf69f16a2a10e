// Type inference from a function argument, and explicit instantiation.
package main

import (
	"fmt"
	"strconv"
)

func Map[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}

func main() {
	strs := Map([]int{1, 2, 3}, func(i int) string { return strconv.Itoa(i * 10) })
	fmt.Printf("%q\n", strs)
	lens := Map[string, int]([]string{"a", "bb", "ccc"}, func(s string) int { return len(s) })
	fmt.Println(lens)
	toFloat := Map[int, float64]
	fmt.Println(toFloat([]int{1, 2}, func(i int) float64 { return float64(i) / 4 }))
}
