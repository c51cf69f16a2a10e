// gocl patch: a value of the program's types in a compiled interface (error, fmt.Stringer) keeps its type: asserted to its own type and to interfaces it implements.
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
}

// Output:
// true true
// true
// true
// true
// true
