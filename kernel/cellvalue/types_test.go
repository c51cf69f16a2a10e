package cellvalue_test

// The real Go types the tests declare: what a cell would declare.

import (
	"errors"
	"fmt"
	"strconv"
)

type T struct {
	A      int
	hidden string
}

type Level int

func (l Level) String() string {
	switch l {
	case 0:
		return "debug"
	case 1:
		return "info"
	case 2:
		return "warn"
	}
	return "Level(" + strconv.Itoa(int(l)) + ")"
}

type Name string

type Celsius float64

func (c Celsius) String() string { return fmt.Sprintf("%.1f°C", float64(c)) }

type Pair struct {
	Key string
	Val Level
}

type Inner struct {
	B int
	c string
}

type Outer struct {
	Inner
	L  Level
	l  Level
	E  error
	X  any
	M  map[string]Level
	S  []Pair
	N  Name
	ns []Name
}

type WithPtr struct {
	P *Inner
	Q *T
	F func()
}

type QueryError struct {
	Query string
	Err   error
}

func (e *QueryError) Error() string { return "query " + e.Query + ": " + e.Err.Error() }
func (e *QueryError) Unwrap() error { return e.Err }

type ValErr struct{ Msg string }

func (v ValErr) Error() string { return "valerr: " + v.Msg }

type Multi struct{ errs []error }

func (m Multi) Error() string   { return fmt.Sprintf("%d errors", len(m.errs)) }
func (m Multi) Unwrap() []error { return m.errs }

type CodeErr struct{ Code int }

func (c CodeErr) Error() string { return "code " + strconv.Itoa(c.Code) }
func (c CodeErr) Is(target error) bool {
	t, ok := target.(CodeErr)
	return ok && (t.Code == 0 || t.Code == c.Code)
}

type Boom struct{ N int }

func (Boom) String() string { panic("boom") }

type Fancy int

func (x Fancy) Format(f fmt.State, verb rune) {
	w, wok := f.Width()
	fmt.Fprintf(f, "F<%c %d w=%d,%v plus=%v>", verb, int(x), w, wok, f.Flag('+'))
}

type GoS struct{ A int }

func (GoS) GoString() string { return "GoS!" }

type PtrStr struct{ A int }

func (p *PtrStr) String() string { return "ptrstr" }

type Color uint8

func (c Color) String() string { return "color" + strconv.Itoa(int(c)) }

type Bytes []byte

type Grid [2][2]int

type Shape interface{ Area() float64 }

type Sq struct{ S float64 }

func (s Sq) Area() float64 { return s.S * s.S }

type Node struct {
	V    int
	Next *Node
}

type embedsErr struct {
	ValErr
	n int
}

var errBase = errors.New("base")

type Flag bool

type Cplx complex64

type IP [4]byte

func (ip IP) String() string { return fmt.Sprintf("%d.%d.%d.%d", ip[0], ip[1], ip[2], ip[3]) }

type Set map[string]bool

func (s Set) String() string { return fmt.Sprintf("set of %d", len(s)) }

type Ptrs struct {
	*Inner
	N int
	x any
	S Set
	I IP
	f Flag
}

type Raw [3]byte

type Uptr uintptr
