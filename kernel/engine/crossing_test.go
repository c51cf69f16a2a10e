package engine

import (
	"strings"
	"testing"
)

// TestRerunReusesMethodHelpers checks that re-running a cell that prints a
// cell type's value compiles no new method helper (each would be one more
// global in the interpreter, kept for good), and that redeclaring the
// method gives the new one.
func TestRerunReusesMethodHelpers(t *testing.T) {
	e := newEngine(t)
	ok(t, e, "type Level int\nfunc (l Level) String() string { return \"L\" }")
	print := "fmt.Println([]Level{1, 2})"
	_, r := ok(t, e, print)
	expect(t, "first print", r.text("stdout"), "[L L]\n")
	n := len(e.cross.helpers)
	for i := 0; i < 5; i++ {
		ok(t, e, print)
	}
	if got := len(e.cross.helpers); got != n {
		t.Errorf("five re-runs compiled %d more helpers, want none", got-n)
	}
	// yaegi keeps a method's first declaration: another body is refused.
	err := fails(t, e, "func (l Level) String() string { return \"M\" }")
	if !strings.Contains(err.Value, "Level.String was declared in an earlier cell") {
		t.Errorf("a changed method: %s", tb(err))
	}
	ok(t, e, "func (l Level) String() string { return \"L\" }") // the same again: harmless
	_, r = ok(t, e, print)
	expect(t, "after the same declaration again", r.text("stdout"), "[L L]\n")
}
