// Go's bounds-error numbers, and the code where an index out of range is
// never evaluated, or evaluated only after something that changes it: a
// check put in the wrong place would panic where Go does not.
package main

import (
	"fmt"
	"runtime"
)

func try(what string, f func()) {
	defer func() {
		if r := recover(); r != nil {
			_, isRuntime := r.(runtime.Error)
			fmt.Printf("%s: panic: %v (runtime error: %v)\n", what, r, isRuntime)
		}
	}()
	f()
	fmt.Printf("%s: ok\n", what)
}

var k = 9

func resetK() int { k = 0; return 1 }

type counter struct{ n int }

func (c *counter) next() int { c.n = 0; return 2 }

func main() {
	xs := []int{10, 20, 30}
	i := 5
	var z int

	// Numbers where Go gives them.
	try("index", func() { _ = xs[i] })
	try("negative index", func() { n := -2; _ = xs[n] })
	try("index from arithmetic", func() { _ = xs[i-1] + xs[i%4] })
	try("array", func() { var a [4]int; _ = a[i] })
	try("string", func() { s := "héllo"; fmt.Println(s[i], s[i+1]) })
	try("unsigned", func() { var u uint8 = 200; _ = xs[u] })
	try("slice high", func() { _ = xs[1:i] })
	try("slice low above high", func() { j := 2; _ = xs[j:1] })
	try("slice low", func() { _ = xs[i:] })
	try("slice of a string", func() { s := "abc"; _ = s[:i] })
	try("three-index max", func() { ys := make([]int, 2, 4); _ = ys[0:1:i] })
	try("three-index high", func() { ys := make([]int, 2, 4); j := 3; _ = ys[0:j:2] })
	try("assignment", func() { xs[i] = 1 })
	try("right side first", func() { ys := []int{1}; j := 7; ys[i] = xs[j] })
	try("left side first", func() { ys := []int{1}; j := 7; ys[i] += xs[j] })
	try("a map entry's value first", func() { j := 7; _ = map[int]int{xs[i]: xs[j]} })
	try("left to right", func() { ys := []int{1}; j := 7; fmt.Println(xs[j]*2 + ys[i]) })
	try("a map's key first", func() { m := map[int]int{}; ys := []int{1}; j := 7; fmt.Println(m[xs[j]] + ys[i]) })
	try("slices in order", func() { j := 7; fmt.Println(len(xs[:j]), len(xs[i:])) })
	try("loop past the end", func() {
		s, n := 0, 4
		for j := 0; j < n; j++ {
			s += xs[j]
		}
		fmt.Println(s)
	})
	try("range over another", func() {
		long := make([]int, 6)
		for j := range long {
			long[j] = xs[j]
		}
	})
	try("grid", func() {
		grid := [][]int{{1, 2}, {3}}
		for r := range grid {
			row := grid[r]
			fmt.Println(row[1])
		}
	})

	// No panic in Go: the index is not evaluated, or is changed first.
	try("&& short-circuit", func() {
		if i < len(xs) && xs[i] > 0 {
			fmt.Println("never")
		}
	})
	try("|| short-circuit", func() {
		if i >= len(xs) || xs[i] == 0 {
			fmt.Println("out of range, not indexed")
		}
	})
	try("case order", func() {
		switch {
		case i >= len(xs):
			fmt.Println("first case")
		case xs[i] > 0:
			fmt.Println("never")
		}
	})
	try("case expression", func() {
		switch 10 {
		case xs[0]:
			fmt.Println("first case")
		case xs[i]:
			fmt.Println("never")
		}
	})
	try("loop condition", func() {
		n := 0
		for j := 0; j < len(xs) && xs[j] != 0; j++ {
			n++
		}
		fmt.Println(n)
	})
	try("loop that stops first", func() {
		for j := 0; j < 10; j++ {
			if j == len(xs) {
				break
			}
			fmt.Print(xs[j], " ")
		}
		fmt.Println()
	})
	try("if init", func() {
		i := 5
		if i := 0; xs[i] > 0 {
			fmt.Println("inner i", i)
		}
		_ = i
	})
	try("var specs in order", func() {
		j := 5
		{
			var (
				j = 1
				v = xs[j]
			)
			fmt.Println(j, v)
		}
		_ = j
	})
	try("a call changes a global first", func() {
		k = 9
		fmt.Println(resetK(), xs[k])
	})
	try("a method changes the index first", func() {
		c := &counter{n: 7}
		v := c.next() + xs[c.n]
		fmt.Println(v)
	})
	try("a closure changes the index first", func() {
		j := 8
		set := func() int { j = 1; return 0 }
		fmt.Println(set()+xs[j], j)
	})
	try("closure made early", func() {
		j := 10
		get := func() int { return xs[j] }
		j = 2
		fmt.Println(get())
	})
	try("deferred closure", func() {
		j := 10
		defer func() { fmt.Println("deferred", xs[j]) }()
		j = 0
	})
	try("divide by zero first", func() { _ = 1/z + xs[i] })
	try("appended in the loop", func() {
		ys := []int{1}
		for j := 0; j < 3; j++ {
			ys = append(ys, j)
			fmt.Print(ys[j+1], " ")
		}
		fmt.Println()
	})
	try("map, not a slice", func() {
		m := map[int]int{}
		fmt.Println(m[i])
	})
}
