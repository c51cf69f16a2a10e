// An error type with a value receiver, stored in an error variable, compared,
// and found by errors.As.
package main

import (
	"errors"
	"fmt"
)

type ValErr struct{ msg string }

func (e ValErr) Error() string { return "bad value: " + e.msg }

func check(n int) error {
	if n < 0 {
		return ValErr{"negative"}
	}
	return nil
}

func main() {
	var e error = ValErr{"bad"}
	fmt.Println(e)
	fmt.Println(e == ValErr{"bad"})
	err := fmt.Errorf("check: %w", check(-1))
	var ve ValErr
	fmt.Println(errors.As(err, &ve), ve.msg)
	fmt.Println(check(1) == nil)
}
