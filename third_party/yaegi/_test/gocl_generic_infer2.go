// gocl patch: each type parameter takes the type of its first occurrence in the arguments, not the next occurrence in order.
package main

import "fmt"

func Map[T, U any](s []T, f func(T) U) []U {
	r := make([]U, 0, len(s))
	for _, v := range s {
		r = append(r, f(v))
	}
	return r
}

func Pair[K comparable, V any](k K, f func(K) V, g func(V) K) (K, V) { return g(f(k)), f(k) }

func main() {
	fmt.Println(Map([]int{1, 2, 3}, func(i int) string { return fmt.Sprint(i * 2) }))
	fmt.Println(Pair("ab", func(s string) int { return len(s) }, func(n int) string { return fmt.Sprint(n) }))
}

// Output:
// [2 4 6]
// 2 2
