// range over function iterators, iter.Seq and iter.Seq2, with early break.
package main

import (
	"fmt"
	"iter"
)

func Count(n int) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := 0; i < n; i++ {
			if !yield(i) {
				return
			}
		}
	}
}

func Enumerate[T any](xs []T) iter.Seq2[int, T] {
	return func(yield func(int, T) bool) {
		for i, x := range xs {
			if !yield(i, x) {
				return
			}
		}
	}
}

func main() {
	for i := range Count(10) {
		if i == 4 {
			break
		}
		fmt.Print(i, " ")
	}
	fmt.Println()
	for i, s := range Enumerate([]string{"a", "b", "c"}) {
		fmt.Println(i, s)
	}
	next, stop := iter.Pull(Count(3))
	defer stop()
	for {
		v, ok := next()
		if !ok {
			break
		}
		fmt.Print(v, ";")
	}
	fmt.Println()
}
