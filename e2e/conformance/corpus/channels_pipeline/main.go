// A pipeline of goroutines connected by channels, closed in order.
package main

import "fmt"

func gen(n int) <-chan int {
	out := make(chan int)
	go func() {
		defer close(out)
		for i := 1; i <= n; i++ {
			out <- i
		}
	}()
	return out
}

func square(in <-chan int) <-chan int {
	out := make(chan int)
	go func() {
		defer close(out)
		for v := range in {
			out <- v * v
		}
	}()
	return out
}

func main() {
	for v := range square(gen(5)) {
		fmt.Print(v, " ")
	}
	fmt.Println()
	done := make(chan struct{})
	results := make(chan string, 1)
	go func() {
		results <- "work done"
		close(done)
	}()
	<-done
	select {
	case r := <-results:
		fmt.Println(r)
	default:
		fmt.Println("nothing")
	}
}
