// unsafe.Sizeof inside functions: returned, stored and printed (issue 24:
// a function that returned unsafe.Sizeof of its local returned 0).
package main

import (
	"fmt"
	"unsafe"
)

type T struct {
	a int8
	b int64
}

func size(v int32) uintptr { return unsafe.Sizeof(v) }

func sizeOfT() uintptr {
	var t T
	return unsafe.Sizeof(t)
}

func sizes() {
	x := 3.0
	s := []int{1, 2}
	var t T
	fmt.Println(unsafe.Sizeof(x), unsafe.Sizeof(s), unsafe.Sizeof(t))
	g := func() uintptr { var z int64; return unsafe.Sizeof(z) }
	fmt.Println(g())
}

func main() {
	sizes()
	fmt.Println(size(1), sizeOfT())
	var b bool
	fmt.Println(unsafe.Sizeof(b))
}
