// gocl patch: a promoted method of an interface embedded beside other struct fields is found.
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

func main() {
	w := W{1, N{"bob"}, A(7), "z"}
	fmt.Println(w.Name(), w.Age(), w.x, w.y)
	p := &w
	fmt.Println(p.Name(), p.Age())
	var n Namer = w
	fmt.Println(n.Name())
}

// Output:
// bob 7 1 z
// bob 7
// bob
