// gocl patch: a composite literal assigned to an error variable is wrapped as an error: its Error method can be called.
package main

import (
	"fmt"
)

type ValErr struct{ msg string }

func (e ValErr) Error() string { return "bad value: " + e.msg }

type TwoErr struct {
	code int
	msg  string
}

func (e TwoErr) Error() string { return fmt.Sprint(e.code, " ", e.msg) }

func main() {
	var e error = ValErr{"bad"}
	fmt.Println(e.Error())
	fmt.Println(e)
	e = ValErr{"worse"}
	fmt.Println(e.Error())
	var e2 error = TwoErr{1, "x"}
	fmt.Println(e2.Error())
}

// Output:
// bad value: bad
// bad value: bad
// bad value: worse
// 1 x
