// Labelled continue and break in nested loops, and break inside a switch.
package main

import "fmt"

func main() {
outer:
	for i := 0; i < 4; i++ {
		for j := 0; j < 4; j++ {
			if j > i {
				continue outer
			}
			if i == 3 {
				break outer
			}
			fmt.Print(i, j, " ")
		}
	}
	fmt.Println()
	n := 0
count:
	for {
		switch {
		case n >= 3:
			break count
		default:
			n++
		}
	}
	fmt.Println("n =", n)
}
