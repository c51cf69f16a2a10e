package engine

import (
	"strings"
	"testing"
)

// TestBuiltinAsValue checks Go's error for a builtin function used as a
// value at a cell's top level, and that calls and look-alikes still run.
func TestBuiltinAsValue(t *testing.T) {
	e := newEngine(t)
	err := fails(t, e, "f := println\nf(\"Hello\")")
	if !strings.Contains(err.Value, "use of builtin println not in function call") {
		t.Errorf("f := println: %s", tb(err))
	}
	_, r := ok(t, e, "type S struct{ len int }\ns := S{len: 2}\nxs := make([]int, s.len)\nfmt.Println(len(xs), s.len)")
	expect(t, "builtins called, a field named len", r.text("stdout"), "2 2\n")
}
