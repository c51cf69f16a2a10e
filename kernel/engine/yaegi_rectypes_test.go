package engine

import (
	"strings"
	"testing"
)

// TestRecursiveTypesRefused checks that a type reaching itself through
// type literals other than structs and interfaces is refused before the
// cell runs (yaegi panicked on type P *P and hung on type A [2]*A), naming
// the type, and that recursion through a struct or an interface still runs.
func TestRecursiveTypesRefused(t *testing.T) {
	e := newEngine(t)
	for _, c := range []struct{ code, name string }{
		{"type P *P\nvar p P\nfmt.Println(p == nil)", "P"},
		{"type A [2]*A\nvar a A\nfmt.Println(len(a))", "A"},
		{"type Q *[]Q\nvar q Q\nfmt.Println(q == nil)", "Q"},
		{"type L []L\nfmt.Println(len(L{}))", "L"},
		{"type M map[string]M\nfmt.Println(len(M{}))", "M"},
		{"type lexer struct{ n int }\ntype stateFn func(*lexer) stateFn\nvar s stateFn\nfmt.Println(s == nil)", "stateFn"},
		{"type X *Y\ntype Y []X\nvar x X\nfmt.Println(x == nil)", "X"},
		{"func f() {\n\ttype C chan C\n\tvar c C\n\tfmt.Println(c == nil)\n}\nf()", "C"},
	} {
		res, r := run(t, e, "fmt.Println(\"before\")\n"+c.code)
		if res.Err == nil || !strings.Contains(res.Err.Value, "type "+c.name+" here reaches itself") {
			t.Errorf("%q: got %+v", c.code, res.Err)
		}
		if out := r.text("stdout"); out != "" {
			t.Errorf("%q: the refused cell printed %q", c.code, out)
		}
	}
	_, r := ok(t, e, "type Node struct{ next *Node; kids []Node }\ntype I interface{ Next() I }\ntype Nodes []*Node\n"+
		"n := &Node{next: &Node{}}\nfmt.Println(n.next.next == nil, len(Nodes{n}))")
	expect(t, "recursion through a struct", r.text("stdout"), "true 1\n")
}
