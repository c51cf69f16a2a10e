// A comma-ok receive into blank targets (_, _ = <-c, _, ok = <-c): plain
// yaegi stopped with "reflect.Set: value of type int is not assignable to
// type chan int". Found by e2e/boundsfuzz/semfuzz.py.
package main

import "fmt"

func main() {
	c := make(chan int, 4)
	c <- 8
	c <- 9
	c <- 10
	_, _ = <-c
	var v int
	v, _ = <-c
	var ok bool
	_, ok = <-c
	close(c)
	w, ok2 := <-c
	fmt.Println(v, ok, w, ok2, len(c))
}
