// The Error method of a struct with a value receiver, called through an
// error variable that a composite literal was assigned to, for a struct of
// one field and of two (issue 24: a one-field struct stopped with yaegi's
// "Method index out of range").
package main

import (
	"errors"
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
	e = ValErr{"worse"}
	fmt.Println(e.Error(), e)
	var ve ValErr
	fmt.Println(errors.As(e, &ve), ve.msg)
	var e2 error = TwoErr{1, "x"}
	fmt.Println(e2.Error())
	msgs := []string{}
	for _, err := range []error{e, e2} {
		msgs = append(msgs, err.Error())
	}
	fmt.Println(msgs)
}
