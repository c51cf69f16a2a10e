// cmp.Ordered as a constraint; a generic type with a method.
package main

import (
	"cmp"
	"fmt"
)

func Max[T cmp.Ordered](a T, rest ...T) T {
	m := a
	for _, x := range rest {
		if x > m {
			m = x
		}
	}
	return m
}

type Pair[K cmp.Ordered, V any] struct {
	Key K
	Val V
}

func (p Pair[K, V]) Less(q Pair[K, V]) bool { return cmp.Less(p.Key, q.Key) }

func main() {
	fmt.Println(Max(3, 9, 2), Max("pear", "apple", "zoo"), Max(2.5))
	a, b := Pair[string, int]{"a", 1}, Pair[string, int]{"b", 2}
	fmt.Println(a.Less(b), b.Less(a), cmp.Compare(2, 1))
}
