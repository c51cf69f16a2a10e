// errors.Join and errors.Is / As through joined and wrapped errors.
package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

type codeErr struct{ code int }

func (e codeErr) Error() string { return fmt.Sprintf("code %d", e.code) }

func main() {
	err := errors.Join(io.EOF, fmt.Errorf("ctx: %w", codeErr{7}))
	fmt.Println(err)
	fmt.Println(errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF))
	var ce codeErr
	fmt.Println(errors.As(err, &ce), ce.code)
	_, err = os.Open("/nonexistent/gocl/file")
	fmt.Println(errors.Is(err, fs.ErrNotExist))
	var pe *fs.PathError
	fmt.Println(errors.As(err, &pe), pe.Op)
	fmt.Println(errors.Join(nil, nil) == nil)
}
