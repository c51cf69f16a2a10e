// A composite literal assigned to an interface-typed struct field
// (h.S = Rect{2, 3}): plain yaegi stopped with "reflect.Set: value of type
// interp.valueInterface is not assignable".
package main

import (
	"errors"
	"fmt"
)

type Shape interface{ Area() float64 }

type Rect struct{ W, H float64 }

func (r Rect) Area() float64 { return r.W * r.H }

type Holder struct {
	Name string
	S    Shape
	A    any
	E    error
}

func main() {
	var h Holder
	h.Name = "a"
	h.S = Rect{2, 3}
	fmt.Println(h.S.Area(), h.Name)
	p := &Holder{Name: "b"}
	p.S = &Rect{1, 1}
	p.A = Rect{5, 5}
	fmt.Println(p.S.Area(), p.A.(Rect).W)
	hs := []Holder{{}}
	hs[0].S = Rect{4, 5}
	hs[0].E = errors.New("e")
	fmt.Println(hs[0].S.Area(), hs[0].E)
	h.S = Rect{1, 1}
	fmt.Printf("%v %T\n", h.S, h.S)
}
