// An unrecovered panic ends the program with Go's message after what it
// printed.
package main

import "fmt"

func main() {
	xs := []int{1, 2, 3}
	i := 5
	fmt.Println("before")
	fmt.Println(xs[i])
	fmt.Println("never printed")
}
