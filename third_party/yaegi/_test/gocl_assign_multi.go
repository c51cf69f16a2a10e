// gocl patch: a receive, a call or a composite literal in a multi-value assignment must not skip the other pairs.
package main

import "fmt"

type T struct{ A int }

func two() int      { return 2 }
func inc(n int) int { return n + 1 }

func send(v int, c chan int) { c <- v }

func main() {
	c := make(chan int, 1)
	c <- 1
	x, y := <-c, 5
	fmt.Println(x, y)
	c <- 1
	a, b := two(), <-c
	fmt.Println(a, b)
	c <- 7
	var p, q int
	p, q = 3, <-c
	fmt.Println(p, q)
	p, q = two(), 9
	fmt.Println(p, q)
	p, q = inc(q), inc(p)
	fmt.Println(p, q)
	t, u := T{1}, 5
	fmt.Println(t, u)
	t, u = T{3}, 6
	fmt.Println(t, u)
	c2 := make(chan int)
	go send(1, c2)
	go send(2, c2)
	m, k := <-c2, <-c2
	fmt.Println(m + k)
}

// Output:
// 1 5
// 2 1
// 3 7
// 2 9
// 10 3
// {1} 5
// {3} 6
// 3
