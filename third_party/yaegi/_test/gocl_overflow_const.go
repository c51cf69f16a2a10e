// gocl patch: a package constant that does not fit its type is refused with Go's words (yaegi printed -56, or "constant definition loop").
package main

import "fmt"

const (
	a int8 = iota * 100
	b
	c
)

func main() {
	fmt.Println(a, b, c)
}

// Error:
// _test/gocl_overflow_const.go:9:2: cannot use iota * 100 (untyped int constant 200) as int8 value in constant declaration (overflows)
