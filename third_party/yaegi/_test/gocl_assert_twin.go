// gocl patch: two types of one shape, with methods, stay apart in an any: A{1} is not a B.
package main

import "fmt"

type A struct{ n int }
type B struct{ n int }

func (A) M() {}
func (B) M() {}

func main() {
	var a any = A{1}
	_, ok := a.(B)
	fmt.Println(ok)
	v, ok := a.(A)
	fmt.Println(v, ok)
	var p any = &A{2}
	_, ok = p.(*B)
	fmt.Println(ok)
	_, ok = p.(*A)
	fmt.Println(ok)
}

// Output:
// false
// {1} true
// false
// true
