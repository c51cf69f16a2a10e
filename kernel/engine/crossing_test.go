package engine

import (
	"go/ast"
	"strings"
	"testing"

	"github.com/seed43a1e1ab/gocl/kernel/cellvalue"
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

// TestShowOrderPicksWhatTheLoopPicked checks the premise of showOrder:
// for final expressions of every arity, the show helper the type check's
// count puts first is the one the engine found before by trying show1 to
// show3 in turn (the first that yaegi compiles), and none when yaegi
// compiles none.
func TestShowOrderPicksWhatTheLoopPicked(t *testing.T) {
	e := newEngine(t)
	ok(t, e, `type P struct{ X, Y int }
func (p P) Two() (int, error) { return p.X, nil }
type I interface{ Two() (int, error) }
func f0() {}
func f1() int { return 1 }
func f2() (int, string) { return 1, "a" }
func f3() (int, string, error) { return 1, "a", nil }
func f4() (int, int, int, int) { return 1, 2, 3, 4 }
func g2[T any](v T) (T, bool) { return v, true }
var i I = P{1, 2}
var m = map[string]int{"a": 1}
var ch = make(chan int, 1)
var s = []int{1}
var a any = 1`)
	first := func(x ast.Expr, order []string) string {
		for _, h := range order {
			call := &ast.CallExpr{Fun: &ast.Ident{NamePos: x.Pos(), Name: helperPrefix + h}, Lparen: x.Pos(), Args: []ast.Expr{x}, Rparen: x.End()}
			if _, err := e.compileAST(&ast.BlockStmt{Lbrace: x.Pos(), List: []ast.Stmt{&ast.ExprStmt{X: call}}, Rbrace: x.End()}); err == nil {
				return h
			}
		}
		return "none"
	}
	for _, c := range []struct {
		cell    string
		results int
	}{
		{"f0()", 0}, {"func() {}()", 0}, {"println(1)", 0}, {"delete(m, \"b\")", 0}, {"x := 1\nf0()", 0},
		{"f1()", 1}, {"fmt.Sprint(P{})", 1}, {"fmt.Errorf(\"e\")", 1}, {"len(s)", 1}, {"append(s, 1)", 1}, {"m[\"a\"]", 1},
		{"a.(int)", 1}, {"ch <- 1\n<-ch", 1}, {"new(int)", 1}, {"P{}.Two", 1}, {"f2", 1}, {"recover()", 1}, {"copy(s, s)", 1},
		{"f2()", 2}, {"g2(1)", 2}, {"P{1, 2}.Two()", 2}, {"i.Two()", 2}, {"fmt.Println(P{})", 2}, {"fmt.Print()", 2},
		{"func() (int, int) { return 1, 2 }()", 2}, {"fmt.Sscan(\"1\", new(int))", 2}, {"x := 1\nfmt.Println(x)", 2},
		{"f3()", 3}, {"f4()", 4},
	} {
		run(t, e, c.cell)
		x := e.cross.shown.x
		// (go/types reports a value that is not a call as not used: its
		// count is not known, and show1 comes first all the same.)
		if x == nil || e.cross.shown.results != c.results && (c.results != 1 || e.cross.shown.results != -1) {
			t.Errorf("%q: the check counted %d values (of %v), want %d", c.cell, e.cross.shown.results, x, c.results)
			continue
		}
		if got, was := first(x, e.cross.showOrder(x)), first(x, showHelpers); got != was {
			t.Errorf("%q (%d values): showOrder picks %s, trying each in turn picked %s", c.cell, c.results, got, was)
		}
		e.cross.shown = shownExpr{}
	}
}

// TestReprintKeepsDescriptors checks that a cell checked against the same
// checked session as the one before uses the descriptors that cell made
// (crossing_reuse.go), and that a cell after the session changed makes
// them anew.
func TestReprintKeepsDescriptors(t *testing.T) {
	e := newEngine(t)
	ok(t, e, "type T struct{ A int; s string }")
	last := func() *cellvalue.Type { return e.cross.descs[len(e.cross.descs)-1] }
	var ds []*cellvalue.Type
	for i := 0; i < 3; i++ {
		_, r := ok(t, e, "fmt.Println(T{1, \"x\"})")
		expect(t, "print", r.text("stdout"), "{1 x}\n")
		ds = append(ds, last())
	}
	if ds[1] != ds[2] {
		t.Errorf("a cell checked against the same session made T's descriptor anew")
	}
	ok(t, e, "func (t T) String() string { return \"T\" }")
	_, r := ok(t, e, "fmt.Println(T{1, \"x\"})")
	expect(t, "after T's String", r.text("stdout"), "T\n")
	if last() == ds[2] || last().Methods == nil {
		t.Errorf("after the session changed, T's descriptor was not made anew with its String")
	}
}
