package engine

import (
	"strings"
	"testing"
)

// TestUseBeforeDeclarationInACell checks Go's "undefined" for a name a
// cell's statement uses before a later statement declares it, and that
// uses of an earlier cell's name, or a field of the same name, stay fine.
func TestUseBeforeDeclarationInACell(t *testing.T) {
	e := newEngine(t)
	err := fails(t, e, "var (\n\ta = b\n\tb = \"hello\"\n)\nfmt.Println(a)")
	if err.Name != "CompileError" || !strings.HasPrefix(err.Value, "undefined: b") {
		t.Errorf("a var that uses a later one: %s", tb(err))
	}
	ok(t, e, "x := 1")
	_, r := ok(t, e, "y := x + 1\nx := 5\np := struct{ y int }{y: 2}\nfmt.Println(y, x, p.y)")
	expect(t, "an earlier cell's x, a field named y", r.text("stdout"), "2 5 2\n")
}
