//go:build gocl_refused

// An untyped constant operand that does not fit the other operand's type:
// Go refuses the program (issue 24: yaegi printed 71).
package main

import "fmt"

func main() {
	var i8 int8 = 127
	fmt.Println(i8 + 200)
}
