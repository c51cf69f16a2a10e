// gocl patch: append of a value whose method has a pointer receiver to a slice of the interface does not compile.
package main

import "fmt"

type Abser interface{ Abs() float64 }

type V struct{ X float64 }

func (v *V) Abs() float64 { return v.X }

func main() {
	var s []Abser
	s = append(s, &V{1}, V{2})
	fmt.Println(len(s))
}

// Error:
// _test/gocl_methodset_append.go:14:23: cannot use main.V as main.Abser value: main.V does not implement main.Abser (method Abs has pointer receiver)
