// gocl patch: a comma-ok receive assigns to blank targets.
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

// Output:
// 9 true 0 false 0
