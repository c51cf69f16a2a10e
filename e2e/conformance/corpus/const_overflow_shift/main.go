//go:build gocl_refused

// A typed constant expression whose exact value does not fit its type: Go
// refuses the program (issue 24: yaegi folded it to 0).
package main

import "fmt"

func main() {
	fmt.Println(int8(1) << 8)
}
