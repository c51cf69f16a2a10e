// gocl patch: a value whose method has a pointer receiver does not implement the interface (Go's method sets).
package main

import "fmt"

type Abser interface{ Abs() float64 }

type V struct{ X float64 }

func (v *V) Abs() float64 { return v.X }

func main() {
	var a Abser = V{5}
	fmt.Println(a.Abs())
}

// Error:
// _test/gocl_methodset_ptr.go:13:16: cannot use main.V as main.Abser value: main.V does not implement main.Abser (method Abs has pointer receiver)
