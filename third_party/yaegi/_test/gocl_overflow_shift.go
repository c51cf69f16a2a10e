// gocl patch: a typed constant expression that overflows its type is refused (yaegi folded it to 0).
package main

import "fmt"

func main() {
	fmt.Println(int8(1) << 8)
}

// Error:
// _test/gocl_overflow_shift.go:7:14: int8(1) << 8 (constant 256 of type int8) overflows int8
