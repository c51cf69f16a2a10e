// gocl patch: Go 1.22 loop variables: a three-clause loop gives each iteration its own variable, for addresses and closures.
package main

import "fmt"

type P struct{ X, Y int }

func main() {
	var ps []*int
	for i := 0; i < 6; i++ {
		if i%2 == 0 {
			continue
		}
		ps = append(ps, &i)
	}
	fmt.Println(*ps[0], *ps[1], *ps[2])
	var fs []func() int
	for i, j := 0, 10; i < 3; i, j = i+1, j-1 {
		fs = append(fs, func() int { return i*100 + j })
	}
	fmt.Println(fs[0](), fs[1](), fs[2]())
	var xs []*int
	for i := 0; i < 5; i++ {
		xs = append(xs, &i)
		i++
	}
	fmt.Println(*xs[0], *xs[1], *xs[2])
	var qs []*int
	for p := (P{}); p.X < 3; p.X++ {
		qs = append(qs, &p.Y)
		p.Y = p.X * 10
	}
	fmt.Println(*qs[0], *qs[1], *qs[2])
	n := 0
	for i := 0; i < 1000000; i++ {
		n += i
	}
	fmt.Println(n)
	g := func() []*int {
		var r []*int
		for k := 0; k < 2; k++ {
			func() { r = append(r, &k) }()
		}
		return r
	}()
	fmt.Println(*g[0], *g[1])
}

// Output:
// 1 3 5
// 10 109 208
// 1 3 5
// 0 10 20
// 499999500000
// 0 1
