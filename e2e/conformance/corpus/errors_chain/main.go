// errors.Is and errors.As through a program's own error types: a compiled
// sentinel wrapped by a cell's error, a cell's error wrapped by fmt.Errorf,
// errors.Join; and an embedded struct and a pointer-receiver String.
package main

import (
	"errors"
	"fmt"
	"strconv"
)

type Base struct{ ID int }

func (b Base) Describe() string { return "base " + strconv.Itoa(b.ID) }

type Named struct {
	Base
	Name string
}

type Vec struct{ X, Y float64 }

func (v *Vec) String() string { return fmt.Sprintf("(%g,%g)", v.X, v.Y) }

type ErrCode int

func (e ErrCode) Error() string { return "code " + strconv.Itoa(int(e)) }

var ErrMissing = errors.New("missing")

type OpError struct {
	Op  string
	Err error
}

func (e *OpError) Error() string { return e.Op + ": " + e.Err.Error() }
func (e *OpError) Unwrap() error { return e.Err }

func do(op string) error {
	if op == "read" {
		return &OpError{Op: op, Err: ErrMissing}
	}
	return &OpError{Op: op, Err: ErrCode(7)}
}

func main() {
	n := Named{Base{1}, "n"}
	fmt.Printf("%v %+v %s\n", n, n, n.Describe())
	v := Vec{1, 2}
	fmt.Println(v, &v)
	fmt.Printf("%v %s %v\n", &v, &v, []*Vec{&v}[0])
	for _, op := range []string{"read", "write"} {
		err := do(op)
		var oe *OpError
		var code ErrCode
		fmt.Println(err, errors.Is(err, ErrMissing), errors.As(err, &oe), oe.Op, errors.As(err, &code), code)
	}
	wrapped := fmt.Errorf("ctx: %w", do("write"))
	fmt.Println(wrapped)
	var code ErrCode
	fmt.Println(errors.As(wrapped, &code), int(code))
	joined := errors.Join(ErrMissing, ErrCode(3))
	fmt.Println(joined, errors.Is(joined, ErrMissing))
	fmt.Printf("%q %x %5.1f|%-4d|\n", "s", 255, 3.14159, 42)
}
