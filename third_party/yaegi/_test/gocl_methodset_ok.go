// gocl patch: method sets: valid uses of value and pointer receivers keep working.
// Method sets: a value has the methods with value receivers, a pointer has
// both kinds; a struct embedding a pointer promotes both. A value whose
// method has a pointer receiver does not implement the interface, so an
// assertion to it fails and a type switch does not take its case (issue 24:
// yaegi gave a value its pointer methods too).
package main

import "fmt"

type Abser interface{ Abs() float64 }

type V struct{ X float64 }

func (v *V) Abs() float64 { return v.X }

type W struct{ X float64 }

func (w W) Abs() float64 { return w.X * 2 }

type E struct{ *V }

type F struct {
	V
	n int
}

func (f F) Abs() float64 { return 7 }

func show(a Abser) { fmt.Println(a.Abs()) }

func main() {
	var a Abser = &V{5}
	fmt.Println(a.Abs())
	a = W{3}
	fmt.Println(a.Abs())
	a = &W{4}
	show(a)
	show(E{&V{1}})
	show(F{})
	var x interface{} = V{2}
	_, ok := x.(Abser)
	fmt.Println(ok)
	switch x.(type) {
	case Abser:
		fmt.Println("an Abser")
	default:
		fmt.Println("not an Abser")
	}
	x = &V{2}
	_, ok = x.(Abser)
	fmt.Println(ok)
}

// Output:
// 5
// 6
// 8
// 1
// 7
// false
// not an Abser
// true
