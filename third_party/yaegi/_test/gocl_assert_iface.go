// gocl patch: type assertions to interfaces: a program's struct held in an any (assigned as a literal), compiled values held bare in an error, pointer receivers, and a failed comma-ok assertion's zero value.
package main

import (
	"errors"
	"fmt"
)

type T struct{ n int }

func (t T) String() string { return fmt.Sprint("T", t.n) }

func (t T) Name() string { return "name" }

type P struct{ n int }

func (p *P) String() string { return "P" }

type Namer interface{ Name() string }

type Both interface {
	Namer
	fmt.Stringer
}

func kind(x any) string {
	switch x.(type) {
	case Both:
		return "both"
	case fmt.Stringer:
		return "stringer"
	case interface{ Error() string }:
		return "error"
	case nil:
		return "nil"
	}
	return "other"
}

func main() {
	var x any = T{1}
	s, ok := x.(fmt.Stringer)
	fmt.Println(s.String(), ok)
	var y any
	y = T{2}
	s, ok = y.(fmt.Stringer)
	fmt.Println(s.String(), ok)
	nm, ok := x.(Namer)
	fmt.Println(nm.Name(), ok)
	var p any = P{1}
	s, ok = p.(fmt.Stringer)
	fmt.Println(s == nil, ok)
	_, ok = p.(interface{ String() string })
	fmt.Println(ok)
	var q any = &P{1}
	_, ok = q.(fmt.Stringer)
	fmt.Println(ok)
	var e error = errors.New("a")
	_, ok = e.(interface{ Error() string })
	fmt.Println(ok)
	err := errors.Join(errors.New("b"), errors.New("c"))
	u, ok := err.(interface{ Unwrap() []error })
	fmt.Println(ok, len(u.Unwrap()))
	_, ok = e.(interface{ Unwrap() []error })
	fmt.Println(ok)
	var y2 any = &T{3}
	_, ok = y2.(fmt.Stringer)
	fmt.Println(ok)
	fmt.Println(kind(T{4}), kind(&T{5}), kind(P{6}), kind(&P{7}), kind(errors.New("d")), kind(nil), kind(3))
}

// Output:
// T1 true
// T2 true
// name true
// true false
// false
// true
// true
// true 2
// false
// true
// both both other stringer error nil other
