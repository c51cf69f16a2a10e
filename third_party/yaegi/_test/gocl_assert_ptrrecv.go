// gocl patch: a value in an interface does not have its type's pointer methods.
package main

import "fmt"

type V struct{ N int }

func (v V) Get() int { return v.N }
func (v *V) Inc()    { v.N++ }

type Getter interface{ Get() int }
type Incer interface{ Inc() }

type S struct{ N int }

func (s *S) String() string { return "S" }

func main() {
	var a any = V{1}
	_, ok := a.(Incer)
	var g Getter = V{2}
	_, ok2 := g.(Incer)
	var p any = &V{3}
	_, ok3 := p.(Incer)
	var s fmt.Stringer = &S{}
	_, ok4 := s.(Getter)
	_, ok5 := a.(Getter)
	var d any
	d = V{4}
	g, ok6 := d.(Getter)
	fmt.Println(ok, ok2, ok3, ok4, ok5, ok6, g.Get())
	switch x := d.(type) {
	case Incer:
		fmt.Println("incer", x)
	case Getter:
		fmt.Println("getter", x.Get())
	}
}

// Output:
// false false true false true true 4
// getter 4
