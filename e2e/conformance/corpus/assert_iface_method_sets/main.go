// Type assertions to interfaces and their method sets: a struct the program
// declares, assigned to an any as a literal, asserted to fmt.Stringer and to
// an interface the program declares; a pointer-receiver method (not in the
// value's method set); a failed comma-ok assertion's zero value; compiled
// errors asserted to interface literals.
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
}
