// gocl patch: a constant that does not fit the declared type is refused, as Go does (yaegi printed -56).
package main

import "fmt"

func main() {
	var x int8 = 200
	fmt.Println(x)
}

// Error:
// _test/gocl_overflow_var.go:7:15: cannot use 200 (untyped int constant) as int8 value in variable declaration (overflows)
