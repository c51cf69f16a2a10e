// Assertions on values of the program's types held in compiled interface
// variables (error, fmt.Stringer): to their own type, to interface literals
// and to interfaces the program declares or compiled ones (the standard
// library's errors examples assert to interface{ Unwrap() error }).
package main

import (
	"errors"
	"fmt"
	"io"
)

type MyErr struct{ inner error }

func (e MyErr) Error() string { return "my: " + e.inner.Error() }
func (e MyErr) Unwrap() error { return e.inner }

type T struct{ n int }

func (t T) String() string              { return "T" }
func (t T) Name() string                { return "name" }
func (t T) Write(p []byte) (int, error) { return len(p), nil }

type Namer interface{ Name() string }

func main() {
	var e error = MyErr{errors.New("x")}
	u, ok := e.(interface{ Unwrap() error })
	fmt.Println(ok, u != nil)
	var st fmt.Stringer = T{2}
	_, ok = st.(Namer)
	fmt.Println(ok)
	_, ok = st.(io.Writer)
	fmt.Println(ok)
	_, ok = st.(interface{ String() string })
	fmt.Println(ok)
	_, ok = st.(T)
	fmt.Println(ok)
	fmt.Println(errors.Unwrap(e))
}
