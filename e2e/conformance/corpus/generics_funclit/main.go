// A generic function of two type parameters called with a func literal:
// each type parameter is inferred from its own occurrence (issue 24: yaegi
// took U from T's second occurrence and stopped with "cannot use type
// func(int) string as type func(int) int").
package main

import (
	"fmt"
	"strconv"
)

func Map[T, U any](s []T, f func(T) U) []U {
	r := make([]U, 0, len(s))
	for _, v := range s {
		r = append(r, f(v))
	}
	return r
}

func Reduce[T, A any](s []T, init A, f func(A, T) A) A {
	acc := init
	for _, v := range s {
		acc = f(acc, v)
	}
	return acc
}

func main() {
	words := Map([]int{1, 2, 3}, func(i int) string { return strconv.Itoa(i * 2) })
	fmt.Println(words, len(words))
	fmt.Println(Reduce(words, 0.5, func(a float64, s string) float64 { return a + float64(len(s)) }))
}
