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

// TestIOCopyUsesTheCellTypesMethods checks that io.Copy calls a cell
// type's WriteTo, or its ReadFrom, as Go's io.Copy does.
func TestIOCopyUsesTheCellTypesMethods(t *testing.T) {
	e := newEngine(t)
	ok(t, e, "import (\n\t\"io\"\n\t\"strings\"\n)\ntype src struct{ s string }\nfunc (r src) Read(p []byte) (int, error) { return 0, io.EOF }\n"+
		"func (r src) WriteTo(w io.Writer) (int64, error) { n, err := io.WriteString(w, \"via WriteTo \"+r.s); return int64(n), err }\n"+
		"type dst struct{ got string }\nfunc (d *dst) Write(p []byte) (int, error) { return len(p), nil }\n"+
		"func (d *dst) ReadFrom(r io.Reader) (int64, error) { b, _ := io.ReadAll(r); d.got = \"via ReadFrom \" + string(b); return int64(len(b)), nil }")
	_, r := ok(t, e, "var sb strings.Builder\nn, err := io.Copy(&sb, src{\"x\"})\nd := &dst{}\nm, _ := io.Copy(d, strings.NewReader(\"abc\"))\n"+
		"fmt.Println(sb.String(), n, err, d.got, m)")
	expect(t, "io.Copy", r.text("stdout"), "via WriteTo x 13 <nil> via ReadFrom abc 3\n")
}

// TestReprintCompilesNoProbe checks that printing a struct value again
// compiles no probe of its bare type again (crossing_reuse.go), and that
// the resolver still learns the descriptor anew once a field's type has
// gained a method.
func TestReprintCompilesNoProbe(t *testing.T) {
	e := newEngine(t)
	ok(t, e, "type B struct{ N int }\ntype T struct{ A int; B B }")
	print := "fmt.Println(T{1, B{2}})"
	_, r := ok(t, e, print)
	expect(t, "first print", r.text("stdout"), "{1 {2}}\n")
	n := len(e.cross.helpers)
	for i := 0; i < 5; i++ {
		ok(t, e, print)
	}
	if got := len(e.cross.helpers); got != n {
		t.Errorf("five re-runs compiled %d more helpers, want none", got-n)
	}
	ok(t, e, "func (b B) String() string { return \"B\" }")
	_, r = ok(t, e, print)
	expect(t, "after B's String", r.text("stdout"), "{1 B}\n")
	learnt := 0
	for raw, d := range e.cross.rawTypes {
		if d == nil || d.String != "main.T" {
			continue
		}
		learnt++
		if f := d.Under.Fields[1].Type; f.Methods == nil || f.Methods.String == nil {
			t.Errorf("the resolver's descriptor of %v has no String for its field B: learnt before B had one", raw)
		}
	}
	if learnt != 1 {
		t.Errorf("the resolver knows %d bare types of main.T, want 1", learnt)
	}
	_, r = ok(t, e, "var v any = T{1, B{2}}\nfmt.Println(v)")
	expect(t, "in an interface", r.text("stdout"), "{1 B}\n")
}
