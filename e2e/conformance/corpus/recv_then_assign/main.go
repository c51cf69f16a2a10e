// A variable set by a receive is assigned again: plain yaegi stopped with
// "reflect.Value.Set using unaddressable value". Found by
// e2e/boundsfuzz/semfuzz.py.
package main

import "fmt"

func two(a int) (int, int) { return a, a * 10 }

func send(c chan int, v int) { c <- v }

func main() {
	c := make(chan int, 4)
	c <- 8
	c <- 9
	c <- 10
	y, _ := two(5)
	x := <-c
	x, y = y+x, x
	fmt.Println(x, y)
	x = <-c
	x++
	fmt.Println(x)
	var z int
	z = <-c
	z, y = y, z
	fmt.Println(z, y)
	go send(c, 11)
	w := <-c
	w *= 2
	fmt.Println(w)
}
