// An interface holds a copy of the struct converted to it: a later change
// of the variable does not show through the interface (plain yaegi wrapped
// the variable itself). Found by e2e/boundsfuzz/semfuzz.py.
package main

import "fmt"

type V struct{ N int }

func (v V) Get() int { return v.N }
func (v *V) Inc()    { v.N++ }

type Getter interface{ Get() int }

func main() {
	v := V{N: 0}
	var g Getter = v
	v.Inc()
	fmt.Println(g.Get(), v.N)
	var a any = v
	v.Inc()
	fmt.Println(a.(V).N, a)
	gs := []Getter{v, &v, V{N: 9}}
	v.Inc()
	for _, g := range gs {
		fmt.Println(g.Get())
	}
	var h Getter
	h = v
	v.Inc()
	fmt.Println(h.Get(), v.Get())
	arr := [2]int{1, 2}
	var ai any = arr
	arr[0] = 9
	fmt.Println(ai, arr)
}
