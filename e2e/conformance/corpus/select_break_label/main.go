// break with a label inside a select case leaves the labelled for loop.
package main

import "fmt"

func main() {
	ch := make(chan int, 5)
	for i := 1; i <= 5; i++ {
		ch <- i * i
	}
	close(ch)
	var never chan int // nil: never ready
	sum := 0
loop:
	for {
		select {
		case v, ok := <-ch:
			if !ok {
				break loop
			}
			if v > 10 {
				fmt.Println("big value, stopping at", v)
				break loop
			}
			sum += v
		case <-never:
			fmt.Println("unreachable")
		}
	}
	fmt.Println("sum", sum)
}
