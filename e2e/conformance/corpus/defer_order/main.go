// Deferred calls run when the function (in a notebook: the cell) ends, last
// in first out, with arguments evaluated at the defer statement.
package main

import "fmt"

func main() {
	defer fmt.Println("deferred first, runs last")
	for i := 0; i < 3; i++ {
		defer fmt.Println("deferred in loop", i)
	}
	x := 10
	defer fmt.Println("x was", x)
	x = 20
	defer func() { fmt.Println("closure sees x =", x) }()
	fmt.Println("body done")
}
