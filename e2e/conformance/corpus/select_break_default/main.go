// break with a label inside a select case (with a default) leaves the
// labelled for loop; a break without a label leaves only the select.
package main

import "fmt"

func main() {
	ch := make(chan int, 4)
	for _, v := range []int{3, 5, 12, 1} {
		ch <- v
	}
	sum, rounds := 0, 0
loop:
	for {
		rounds++
		select {
		case v := <-ch:
			if v > 10 {
				break loop
			}
			if v == 5 {
				break // leaves the select only
			}
			sum += v
		default:
			fmt.Println("empty")
			break loop
		}
	}
	fmt.Println("sum", sum, "rounds", rounds, "left", len(ch))
}
