// Error types declared in the program: %w wrapping, errors.Is, errors.As
// with a pointer receiver.
package main

import (
	"errors"
	"fmt"
)

var ErrNotFound = errors.New("not found")

type QueryError struct {
	Query string
	Err   error
}

func (e *QueryError) Error() string { return "query " + e.Query + ": " + e.Err.Error() }
func (e *QueryError) Unwrap() error { return e.Err }

func find(q string) error {
	return fmt.Errorf("find: %w", &QueryError{Query: q, Err: ErrNotFound})
}

func main() {
	err := find("users")
	fmt.Println(err)
	fmt.Println(errors.Is(err, ErrNotFound))
	var qe *QueryError
	if errors.As(err, &qe) {
		fmt.Println("as QueryError:", qe.Query)
	}
	fmt.Printf("%v | %s | %q\n", err, err, err)
}
