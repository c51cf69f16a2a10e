package engine

import "testing"

// TestErrorsAsType checks that errors.AsType[E](err), Go 1.26's generic
// errors.As, runs in a cell (it was refused: yaegi cannot call a compiled
// generic function): with a cell's error type, a compiled one, an alias of
// the errors package, inside an if and as an argument, and a miss.
func TestErrorsAsType(t *testing.T) {
	e := newEngine(t)
	_, r := ok(t, e, `import (
	"errors"
	er "errors"
	"fmt"
	"io/fs"
	"os"
)

type codeErr struct{ code int }

func (c *codeErr) Error() string { return fmt.Sprint("code ", c.code) }

func find(err error) int {
	if c, ok := errors.AsType[*codeErr](err); ok {
		return c.code
	}
	return -1
}

err := fmt.Errorf("wrapped: %w", &codeErr{7})
fmt.Println(find(err), find(errors.New("plain")))
_, err = os.Open("/nonexistent/gocl")
pe, ok := er.AsType[*fs.PathError](err)
fmt.Println(ok, pe.Op)
fmt.Println(errors.AsType[*codeErr](err))`)
	expect(t, "errors.AsType", r.text("stdout"), "7 -1\ntrue open\n<nil> false\n")
}
