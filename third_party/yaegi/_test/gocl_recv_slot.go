// gocl patch: a variable a receive defines or assigns can be assigned again.
package main

import "fmt"

func main() {
	c := make(chan int, 4)
	c <- 8
	c <- 9
	c <- 10
	x := <-c
	y := 5
	x, y = y+x, x
	fmt.Println(x, y)
	x = <-c
	x++
	fmt.Println(x)
	var z int
	z = <-c
	z, y = y, z
	fmt.Println(z, y)
	go func() { c <- 11 }()
	w := <-c
	w *= 2
	fmt.Println(w)
}

// Output:
// 13 8
// 10
// 8 10
// 22
