package engine

import "testing"

// TestTopLevelRuneConstants checks the type of variables declared at a
// cell's top level from rune constants, which Go makes rune (int32).
func TestTopLevelRuneConstants(t *testing.T) {
	e := newEngine(t)
	_, r := ok(t, e, "a := 'r'\na += 'g'\nb := 'x' - 'a' + 1\nvar c = 'c'\nd := 1 + 2\ns := \"s\"\nfmt.Printf(\"%v %T %T %T %T %T\\n\", a, a, b, c, d, s)")
	expect(t, "types", r.text("stdout"), "217 int32 int32 int32 int string\n")
}
