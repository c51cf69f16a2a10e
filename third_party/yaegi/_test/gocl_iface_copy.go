// gocl patch: converting a struct variable to an interface copies it.
package main

import "fmt"

type V struct{ N int }

func (v V) Get() int { return v.N }
func (v *V) Inc()    { v.N++ }

type Getter interface{ Get() int }

type W struct{ N int }

func (w W) String() string { return fmt.Sprint("W", w.N) }

func boxed(p *W) any {
	var c any = p
	return c
}

func main() {
	v := V{N: 0}
	var g Getter = v
	v.Inc()
	fmt.Println(g.Get(), v.N)
	var a any = v
	v.Inc()
	fmt.Println(a.(V).N)
	gs := []Getter{v, &v}
	v.Inc()
	fmt.Println(gs[0].Get(), gs[1].Get())
	var h Getter
	h = v
	v.Inc()
	fmt.Println(h.Get(), v.Get())
	arr := [2]int{1, 2}
	var ai any = arr
	arr[0] = 9
	fmt.Println(ai, arr)
	var ap any = &v
	_, isG := ap.(Getter)
	_, isS := ap.(fmt.Stringer)
	fmt.Println(isG, isS)
	st, ok := boxed(&W{3}).(fmt.Stringer)
	fmt.Println(ok, st)
}

// Output:
// 0 1
// 1
// 2 3
// 3 4
// [1 2] [9 2]
// true false
// true W3
