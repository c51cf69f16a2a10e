// Closures keep their own variables; since Go 1.22 each loop iteration has
// its own loop variable.
package main

import "fmt"

func counter() func() int {
	n := 0
	return func() int { n++; return n }
}

func main() {
	c1, c2 := counter(), counter()
	fmt.Println(c1(), c1(), c2())
	var fs []func() int
	for i := 0; i < 3; i++ {
		fs = append(fs, func() int { return i * i })
	}
	for _, s := range []string{"a", "b"} {
		fs = append(fs, func() int { return len(s) })
	}
	for _, f := range fs {
		fmt.Print(f(), " ")
	}
	fmt.Println()
	var fib func(int) int
	fib = func(n int) int {
		if n < 2 {
			return n
		}
		return fib(n-1) + fib(n-2)
	}
	fmt.Println(fib(15))
}
