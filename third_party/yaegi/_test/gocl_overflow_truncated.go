// gocl patch: Go's words for an untyped float operand of an integer (_test/op1.go declares yaegi's former words).
package main

func main() {
	var a int = 3
	a += 1.3
	println(a)
}

// Error:
// _test/gocl_overflow_truncated.go:6:7: 1.3 (untyped float constant) truncated to int
