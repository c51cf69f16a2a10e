//go:build gocl_refused

// A constant that does not fit the declared type: Go refuses the program
// (issue 24: yaegi printed -56, the value wrapped).
package main

import "fmt"

func main() {
	var x int8 = 200
	fmt.Println(x)
}
