// Arrays are values; slices share their backing array until append grows it.
package main

import "fmt"

func main() {
	a := [3]int{1, 2, 3}
	b := a
	b[0] = 9
	fmt.Println(a, b, a == [3]int{1, 2, 3})
	s := a[:2]
	s[1] = 20
	fmt.Println(a, len(s), cap(s))
	t := append(s, 30)
	t[0] = 10
	fmt.Println(a, t)
	u := s[0:1:1]
	u = append(u, 99)
	fmt.Println(a, u, cap(u) >= 2)
	n := copy(b[:], []int{7, 7, 7, 7})
	fmt.Println(n, b)
	grid := [2][3]int{{1, 2, 3}, {4, 5, 6}}
	fmt.Println(grid[1][2], len(grid), len(grid[0]))
	var nilSlice []int
	fmt.Println(nilSlice == nil, len(nilSlice), append(nilSlice, 1))
	m := make([][]string, 2)
	m[0] = append(m[0], "x")
	fmt.Println(m, len(m[1]))
}
