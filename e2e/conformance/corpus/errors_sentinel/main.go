// Errors compared as sentinels, and a struct of two fields with value-receiver
// methods held in an error and a fmt.Stringer, in every way Go converts to an
// interface (assignment, var, named result, return, argument, conversion,
// slice, map and channel element); and one in an interface of the cell's own.
package main

import (
	"errors"
	"fmt"
)

type ValErr struct {
	Code int
	Msg  string
}

func (e ValErr) Error() string { return fmt.Sprintf("%d: %s", e.Code, e.Msg) }

type Point struct{ X, Y int }

type Shape interface{ Area() float64 }

type Rect struct{ W, H float64 }

func (r Rect) Area() float64 { return r.W * r.H }

func (p Point) String() string { return fmt.Sprintf("(%d,%d)", p.X, p.Y) }

func h1() string {
	var r error
	r = ValErr{8, "h1"}
	return r.Error()
}

func h4() (err error) {
	err = ValErr{8, "v4"}
	return
}

func kind(err error) string {
	switch e := err.(type) {
	case ValErr:
		return fmt.Sprint("ValErr ", e.Code)
	case nil:
		return "nil"
	default:
		return "other"
	}
}

type NotFound struct{ Key string }

func (e *NotFound) Error() string { return "not found: " + e.Key }

var ErrMissing = &NotFound{"missing"}

func find(k string) error {
	if k == "" {
		return ErrMissing
	}
	return &NotFound{k}
}

func main() {
	err := find("")
	fmt.Println(err == ErrMissing, find("k") == ErrMissing, err != nil)
	switch find("") {
	case ErrMissing:
		fmt.Println("missing")
	default:
		fmt.Println("other")
	}
	fmt.Println(errors.Unwrap(fmt.Errorf("w: %w", ErrMissing)) == ErrMissing)
	fmt.Println(h1(), h4())
	errs := []error{ValErr{1, "a"}, errors.New("plain"), nil}
	for _, e := range errs {
		fmt.Println(kind(e))
	}
	var s fmt.Stringer = Point{1, 2}
	fmt.Printf("%v %T %+v\n", s, s, s)
	p, ok := s.(Point)
	fmt.Println(p.X, ok)
	e1 := error(ValErr{2, "b"})
	fmt.Println(e1 == ValErr{2, "b"}, e1 == error(ValErr{2, "c"}))
	wrapped := fmt.Errorf("ctx: %w", ValErr{3, "c"})
	var target ValErr
	fmt.Println(errors.As(wrapped, &target), target, errors.Is(wrapped, ValErr{3, "c"}))
	m := map[string]error{"k": ValErr{4, "d"}}
	fmt.Println(m["k"], kind(m["k"]))
	var sh Shape = Rect{2, 3}
	r, isRect := sh.(Rect)
	fmt.Println(sh.Area(), r.W, isRect)
	ch := make(chan error, 1)
	ch <- ValErr{5, "e"}
	fmt.Println(kind(<-ch))
}
