// gocl patch: an untyped constant operand that does not fit the other operand's type is refused (yaegi printed 71).
package main

import "fmt"

func main() {
	var i8 int8 = 127
	fmt.Println(i8 + 200)
}

// Error:
// _test/gocl_overflow_operand.go:8:19: 200 (untyped int constant) overflows int8
