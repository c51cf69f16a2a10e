//go:build gocl_refused

// A constant that does not fit, in a function's variable declaration: Go
// refuses the program (issue 24: yaegi printed -56).
package main

import "fmt"

func small() int8 {
	var y int8 = 200
	return y
}

func main() {
	fmt.Println(small())
}
