// range over an integer.
package main

import "fmt"

func main() {
	for i := range 3 {
		fmt.Print(i, " ")
	}
	fmt.Println()
	n := 0
	for range 4 {
		n++
	}
	fmt.Println("n =", n)
	type Size int
	var s Size = 2
	for i := range s {
		fmt.Printf("%T %v\n", i, i)
	}
}
