package cellmodel

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

var cells = []string{
	"import \"fmt\"\nfunc f(x int) int {\n\treturn x * 2\n}\nx := f(21); y := x\nfmt.Println(x, y)\n",
	"type T struct{ n int }\n\nfunc (t *T) Inc() { t.n++ }\n\nvar t T\nt.Inc()\nt.n",
	"package main\n\nimport \"fmt\"\n\nvar n = m\nvar m = 1\n\nfunc main() {\n\tfmt.Println(n)\n}\n",
	"    a := []int{1,\n  2, 3}\n\tfor i := range a { _ = i }",
	"a := 1; type T int; b := \"é\" + \"ü\"; func f() {}\n\tc := len(b) /* ü */ + a",
}

// TestPosMapAgreesWithLineDirectives checks the map against go/token: the
// parsed chunks carry /*line*/ directives, so the file set's own position of
// every node is the cell's line and column, and the map must say the same,
// and its offset must point at the node's text in the cell.
func TestPosMapAgreesWithLineDirectives(t *testing.T) {
	for _, src := range cells {
		fset := token.NewFileSet()
		c, err := Parse(src, Options{Name: "cell7", FileSet: fset})
		if err != nil {
			t.Fatalf("Parse(%q): %v", src, err)
		}
		if len(c.Parts) != len(c.Chunks) {
			t.Fatalf("%d parts for %d chunks", len(c.Parts), len(c.Chunks))
		}
		nodes := 0
		for _, p := range c.Parts {
			// The wrapper's own nodes (package main, func main) are
			// not the cell's: the chunk's nodes are its declarations
			// or its statements.
			var roots []ast.Node
			if p.File != nil {
				if _, ok := c.Map.Position(p.File.Name.Pos()); ok {
					t.Errorf("%q: the wrapper's package name mapped", src)
				}
				for _, d := range p.File.Decls {
					roots = append(roots, d)
				}
			} else {
				for _, st := range p.Body.List {
					roots = append(roots, st)
				}
			}
			for _, root := range roots {
				ast.Inspect(root, func(n ast.Node) bool {
					if n == nil {
						return true
					}
					want := fset.Position(n.Pos())
					got, ok := c.Map.Position(n.Pos())
					if !ok {
						t.Errorf("%q: %T at %v: not mapped", src, n, want)
						return true
					}
					nodes++
					if want.Filename != "cell7/_.go" || got.Cell != "cell7" || got.Line != want.Line || got.Col != want.Column {
						t.Errorf("%q: %T: map says %s:%d:%d, go/token %v", src, n, got.Cell, got.Line, got.Col, want)
					}
					if text := p.NodeText(n); !strings.HasPrefix(src[got.Offset:], text) || text == "" {
						t.Errorf("%q: %T: offset %d does not start %q", src, n, got.Offset, text)
					}
					return true
				})
			}
		}
		if nodes == 0 {
			t.Errorf("%q: no node checked", src)
		}
	}
}

// TestPosMapGenerated checks the nodes a rewrite makes: a node without a
// position maps to the first node inside it that has one, code the engine
// made up maps nowhere, and generated code that copies a run of the cell
// maps once the run is added.
func TestPosMapGenerated(t *testing.T) {
	src := "x := 1\ny := x + 2\n"
	fset := token.NewFileSet()
	c, err := Parse(src, Options{Name: "cell2", FileSet: fset})
	if err != nil {
		t.Fatal(err)
	}
	stmt := c.Parts[0].Body.List[1].(*ast.AssignStmt)
	sum := stmt.Rhs[0].(*ast.BinaryExpr)
	wrapped := &ast.CallExpr{Fun: &ast.Ident{Name: "helper"}, Args: []ast.Expr{sum}}
	if _, ok := c.Map.Position(wrapped.Pos()); ok {
		t.Errorf("a node without a position mapped")
	}
	got, ok := c.Map.Node(wrapped)
	if !ok || got.Line != 2 || got.Col != 6 {
		t.Errorf("Node(generated call of y's sum) = %+v, %v; want line 2 col 6", got, ok)
	}

	helper, err := parser.ParseFile(fset, "helpers.go", "package main\nfunc helper(v int) int { return v }\n", 0)
	if err != nil {
		t.Fatal(err)
	}
	if p, ok := c.Map.Node(helper.Decls[0]); ok {
		t.Errorf("the engine's own helper mapped to %+v", p)
	}

	// Generated source that carries a copy of "x + 2" at its offset 10.
	gen := "package p;x + 2"
	gf := fset.AddFile("gen.go", -1, len(gen))
	c.Map.Add(gf, 10, strings.Index(src, "x + 2"), len("x + 2"))
	got, ok = c.Map.Position(gf.Pos(14))
	if !ok || got.Line != 2 || got.Col != 10 || src[got.Offset] != '2' {
		t.Errorf("generated copy: %+v, %v; want line 2 col 10 at '2'", got, ok)
	}
	if _, ok := c.Map.Position(gf.Pos(3)); ok {
		t.Errorf("the generated file's own wrapper mapped")
	}
	var zero *PosMap
	if _, ok := zero.Position(gf.Pos(12)); ok {
		t.Errorf("a nil map mapped")
	}
}

func TestParseErrors(t *testing.T) {
	src := "x := (\n}\ntype T int\ny := 1 +\n"
	c, err := Parse(src, Options{Name: "c"})
	if err == nil {
		t.Fatalf("Parse(%q): no error", src)
	}
	// Unbalanced: one chunk, which fails.
	if len(c.Parts) != 1 || c.Parts[0].Err == nil || c.Parts[0].Node() != nil {
		t.Errorf("parts %+v: want one failed part", c.Parts)
	}

	src = "a := 1 + + ;\ntype T int\nb := (2)"
	c, err = Parse(src, Options{Name: "c"})
	if err == nil || len(c.Parts) != 1 {
		t.Errorf("Parse stops at the first error: %d parts, err %v", len(c.Parts), err)
	}
	c, err = Parse(src, Options{Name: "c", KeepGoing: true})
	if err == nil || len(c.Parts) != 3 || c.Parts[1].Err != nil || c.Parts[1].File == nil || c.Parts[2].Err != nil {
		t.Errorf("KeepGoing: %d parts, err %v; want 3, the last two parsed", len(c.Parts), err)
	}
	if !strings.HasPrefix(err.Error(), "c/_.go:") {
		t.Errorf("error %q: want the cell's own position", err)
	}
}

// TestPosMapLineColIsLineCol checks the map's line search against LineCol
// at every offset of texts with empty lines, CRLF and a trailing newline.
func TestPosMapLineColIsLineCol(t *testing.T) {
	for _, text := range []string{"", "a", "\n", "ab\n\ncd\r\nef\n", "\n\nx"} {
		m := NewPosMap("c", text)
		for off := 0; off <= len(text); off++ {
			l, c := m.lineCol(off)
			wl, wc := LineCol(text, off)
			if l != wl || c != wc {
				t.Errorf("%q at %d: %d:%d, LineCol says %d:%d", text, off, l, c, wl, wc)
			}
		}
	}
}
