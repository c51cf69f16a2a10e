// Type assertions to interfaces of values in interface variables: a struct
// the program declares held in any, asserted to fmt.Stringer; a compiled
// error asserted to an interface literal (the standard library's
// errors.ExampleJoin).
package main

import (
	"errors"
	"fmt"
)

type T struct{ n int }

func (t T) String() string { return fmt.Sprint("T", t.n) }

func main() {
	var x any = T{1}
	s, ok := x.(fmt.Stringer)
	fmt.Println(s, ok)
	var e error = errors.New("a")
	_, ok = e.(interface{ Error() string })
	fmt.Println(ok)
	err := errors.Join(errors.New("b"), errors.New("c"))
	u, ok := err.(interface{ Unwrap() []error })
	fmt.Println(ok, u != nil)
}
