// Pointer receivers on addressable values, value receivers on pointers, and
// methods on slice and map types.
package main

import (
	"fmt"
	"sort"
)

type Acc struct{ total int }

func (a *Acc) Add(n int) *Acc { a.total += n; return a }
func (a Acc) Total() int      { return a.total }

type Ints []int

func (xs Ints) Sum() (s int) {
	for _, x := range xs {
		s += x
	}
	return
}

type Set map[string]struct{}

func (s Set) Add(k string) { s[k] = struct{}{} }

func (s Set) Keys() []string {
	var out []string
	for k := range s {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func main() {
	var a Acc
	a.Add(1).Add(2)
	p := &a
	fmt.Println(a.Total(), p.Total())
	fmt.Println(Ints{1, 2, 3}.Sum())
	s := Set{}
	s.Add("b")
	s.Add("a")
	s.Add("b")
	fmt.Println(s.Keys(), len(s))
	accs := []Acc{{1}, {2}}
	for i := range accs {
		accs[i].Add(10)
	}
	fmt.Println(accs)
}
