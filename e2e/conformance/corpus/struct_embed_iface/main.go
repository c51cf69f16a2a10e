// A struct that embeds interfaces beside other fields promotes their
// methods (issue 24: yaegi stopped with "invalid interface value" unless
// the interface was the struct's only field).
package main

import "fmt"

type Namer interface{ Name() string }
type Ager interface{ Age() int }

type N struct{ s string }

func (n N) Name() string { return n.s }

type A int

func (a A) Age() int { return int(a) }

type W struct {
	x int
	Namer
	Ager
	y string
}

type Both interface {
	Namer
	Ager
}

func main() {
	w := W{1, N{"bob"}, A(7), "z"}
	fmt.Println(w.Name(), w.Age(), w.x, w.y)
	p := &w
	fmt.Println(p.Name(), p.Age())
	var b Both = w
	fmt.Println(b.Name(), b.Age())
	fmt.Println(w.Namer.Name())
}
