//go:build go1.26

// errors.AsType, the generic errors.As of Go 1.26.
package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

type tempErr struct{ op string }

func (e *tempErr) Error() string { return e.op + ": temporary" }

func main() {
	err := fmt.Errorf("wrapped: %w", &tempErr{"read"})
	if te, ok := errors.AsType[*tempErr](err); ok {
		fmt.Println("found", te.op)
	}
	_, err = os.Open("/nonexistent/gocl")
	pe, ok := errors.AsType[*fs.PathError](err)
	fmt.Println(ok, pe.Op)
}
