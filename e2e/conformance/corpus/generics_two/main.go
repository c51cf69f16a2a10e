// Two generic functions and a generic type declared together.
package main

import "fmt"

func Filter[T any](xs []T, keep func(T) bool) []T {
	var out []T
	for _, x := range xs {
		if keep(x) {
			out = append(out, x)
		}
	}
	return out
}

func Reduce[T, A any](xs []T, init A, f func(A, T) A) A {
	acc := init
	for _, x := range xs {
		acc = f(acc, x)
	}
	return acc
}

type Stack[T any] struct{ items []T }

func (s *Stack[T]) Push(v T) { s.items = append(s.items, v) }

func (s *Stack[T]) Pop() (T, bool) {
	var zero T
	if len(s.items) == 0 {
		return zero, false
	}
	v := s.items[len(s.items)-1]
	s.items = s.items[:len(s.items)-1]
	return v, true
}

func main() {
	evens := Filter([]int{1, 2, 3, 4, 5, 6}, func(n int) bool { return n%2 == 0 })
	fmt.Println(evens, Reduce(evens, 0, func(a, n int) int { return a + n }))
	fmt.Println(Reduce([]string{"a", "b"}, "", func(a, s string) string { return a + s + s }))
	var s Stack[string]
	s.Push("x")
	s.Push("y")
	v, ok := s.Pop()
	fmt.Println(v, ok, len(s.items))
}
