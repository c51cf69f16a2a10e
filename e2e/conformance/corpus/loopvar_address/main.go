// Go 1.22 loop variables: each iteration of a three-clause loop (and of a
// range over an integer) has its own variable, so the addresses taken and
// the closures made in the body each see their own iteration's value
// (issue 24: yaegi kept one variable, and every pointer saw its last value).
package main

import "fmt"

type P struct{ X, Y int }

func main() {
	var ps []*int
	for i := 0; i < 3; i++ {
		ps = append(ps, &i)
	}
	fmt.Println(*ps[0], *ps[1], *ps[2])
	var rs []*int
	for i := range 3 {
		rs = append(rs, &i)
	}
	fmt.Println(*rs[0], *rs[1], *rs[2])
	var odd []*int
	for i := 0; i < 6; i++ {
		if i%2 == 0 {
			continue
		}
		odd = append(odd, &i)
	}
	fmt.Println(*odd[0], *odd[1], *odd[2])
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
	var vs []*string
	for _, s := range []string{"a", "b"} {
		vs = append(vs, &s)
	}
	fmt.Println(*vs[0], *vs[1])
}
