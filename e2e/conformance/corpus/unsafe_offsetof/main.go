// unsafe.Offsetof of the fields of a struct the program declares, through a
// pointer and through an embedded struct (issue 24: yaegi stopped with a
// nil dereference).
package main

import (
	"fmt"
	"unsafe"
)

type T struct {
	a int8
	b int64
	c int32
}

type Outer struct {
	x int16
	T
}

func offsets() (uintptr, uintptr) {
	var t T
	return unsafe.Offsetof(t.b), unsafe.Offsetof(t.c)
}

func main() {
	var t T
	fmt.Println(unsafe.Offsetof(t.a), unsafe.Offsetof(t.b), unsafe.Offsetof(t.c))
	fmt.Println(offsets())
	var o Outer
	fmt.Println(unsafe.Offsetof(o.T), unsafe.Offsetof(o.c))
	p := &t
	fmt.Println(unsafe.Offsetof(p.c))
}
