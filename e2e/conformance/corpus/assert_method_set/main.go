// Type assertions follow method sets: a V in an interface does not have the
// methods of *V (plain yaegi said it did), and a struct literal stored in an
// any keeps its methods for a later assertion (plain yaegi lost them).
// Found by e2e/boundsfuzz/semfuzz.py.
package main

import "fmt"

type V struct{ N int }

func (v V) Get() int { return v.N }
func (v *V) Inc()    { v.N++ }

type Getter interface{ Get() int }
type Incer interface{ Inc() }

type W struct{ N int }

func (w W) String() string { return fmt.Sprint("W", w.N) }

func main() {
	v := V{N: 1}
	var a any = v
	_, ok1 := a.(Incer)
	var g Getter = v
	_, ok2 := g.(Incer)
	var p any = &v
	_, ok3 := p.(Incer)
	fmt.Println(ok1, ok2, ok3)
	var pa any = &V{7}
	pg, ok := pa.(Getter)
	fmt.Println(ok, pg.Get())
	w := &W{3}
	st, ok := any(w).(fmt.Stringer)
	fmt.Println(ok, st)
	{
		var s2 fmt.Stringer
		s2, ok2 := any(w).(fmt.Stringer)
		fmt.Println(ok2, s2 != nil)
	}

	var b any = V{2}
	_, ok4 := b.(Getter)
	var d any
	d = V{4}
	h, ok5 := d.(Getter)
	fmt.Println(ok4, ok5, h.Get())
	switch x := b.(type) {
	case Incer:
		fmt.Println("incer", x)
	case Getter:
		fmt.Println("getter", x.Get())
	}
	defer func() { fmt.Println("recovered:", recover() != nil) }()
	_ = g.(Incer)
}
