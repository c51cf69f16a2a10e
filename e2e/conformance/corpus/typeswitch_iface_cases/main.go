// Type switches and assertions on interface cases: interfaces the program
// declares (one embedding fmt.Stringer), compiled ones, values and pointers
// of the program's types (pointer-receiver methods only for pointers),
// compiled values (time.Second, errors.New), and nil.
package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
)

type Namer interface{ Name() string }

type T struct{ n int }

func (t T) Name() string   { return fmt.Sprint("T", t.n) }
func (t T) String() string { return "str" }

type P struct{ n int }

func (p *P) Name() string { return "P" }

type Both interface {
	Namer
	fmt.Stringer
}

type RW interface {
	io.Reader
	io.Writer
}

type E struct{ msg string }

func (e E) Error() string { return e.msg }

func kind(x any) string {
	switch v := x.(type) {
	case nil:
		return "nil"
	case Both:
		return "both " + v.Name()
	case Namer:
		return "namer " + v.Name()
	case fmt.Stringer:
		return "stringer " + v.String()
	case error:
		return "error " + v.Error()
	default:
		return fmt.Sprintf("other %T", v)
	}
}

func main() {
	fmt.Println(kind(T{1}))
	fmt.Println(kind(&T{2}))
	fmt.Println(kind(P{3}))
	fmt.Println(kind(&P{4}))
	fmt.Println(kind(time.Second))
	fmt.Println(kind(errors.New("e")))
	fmt.Println(kind(E{"ee"}))
	fmt.Println(kind(nil))
	fmt.Println(kind(3))
	var x any = strings.NewReader("abc")
	_, ok := x.(RW)
	fmt.Println("rw", ok)
	_, ok = x.(io.Reader)
	fmt.Println("r", ok)
	var b any = &strings.Builder{}
	_, ok = b.(io.Writer)
	fmt.Println("w", ok)
	_, ok = b.(interface{ Write([]byte) (int, error) })
	fmt.Println("w2", ok)
	var n Namer = T{5}
	_, ok = n.(fmt.Stringer)
	fmt.Println("ns", ok)
	_, ok = n.(Both)
	fmt.Println("nb", ok)
	var e error = E{"x"}
	_, ok = e.(Namer)
	fmt.Println("en", ok)
	_, ok = e.(fmt.Stringer)
	fmt.Println("es", ok)
	var d any = time.Second
	s := d.(fmt.Stringer)
	fmt.Println("d", s)
	nn := any(T{6}).(Namer)
	fmt.Println(nn.Name())
	var pp any = &P{7}
	fmt.Println(pp.(Namer).Name())
	var vv any = P{8}
	_, ok = vv.(Namer)
	fmt.Println("P namer", ok)
	var ee any = E{"z"}
	er, ok := ee.(error)
	fmt.Println("E err", ok, er)
}
