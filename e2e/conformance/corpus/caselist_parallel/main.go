// A tagless switch's case list, and parallel assignments mixing a string
// constant with calls and composite literals (yaegi dropped a target).
package main

import "fmt"

type Name string

var gs string
var gn int

func main() {
	for _, y := range []int{1, 2, 3} {
		switch {
		case y == 1, y == 2:
			fmt.Println(y, "one or two")
		case y > 2, y < 0:
			fmt.Println(y, "far")
		default:
			fmt.Println(y, "default")
		}
	}
	var s string
	var n int
	var arr [2]int
	sl := []int{1, 2, 3}
	s, arr = "x", [2]int{1, 2}
	fmt.Println(s, arr)
	n, s = len(sl), "j"
	fmt.Println(s, n)
	var nm Name
	nm, n = "nn", len(sl)
	fmt.Println(nm, n)
	const c = "cc"
	s, sl = c, append(sl, 4)
	fmt.Println(s, sl)
	gs, gn = "global", len(sl)
	fmt.Println(gs, gn)
	s, gs = gs, s
	fmt.Println(s, gs)
}
