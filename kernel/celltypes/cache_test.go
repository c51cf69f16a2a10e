package celltypes

import (
	"fmt"
	"go/ast"
	"go/importer"
	"go/token"
	"go/types"
	"sort"
	"strings"
	"testing"
)

// TestCachedCheckIsTheFullCheck checks that a cell checked against the
// checked session gets what the check of session and cell from source
// gives it: the same errors, and the same types and objects for every node
// of the cell.
func TestCachedCheckIsTheFullCheck(t *testing.T) {
	fset := token.NewFileSet()
	s := New(fset, importer.ForCompiler(fset, "source", nil), map[string]string{"fmt": "fmt"})
	s.Commit(cellOf(t, fset, nil, `type T struct{ A, b int; S string }
func (t T) String() string { return fmt.Sprint(t.A) }
type E struct{ s string }
func (e *E) Error() string { return e.s }
func f(len int) int { return len }
var broken = undefinedName`, ""))
	s.Commit(cellOf(t, fset, nil, "", "p := T{1, 2, \"x\"}\nErrX := &E{\"x\"}\nvar err error = ErrX\nx := 1"))
	for _, stmts := range []string{
		"fmt.Println(p)",
		"p",
		"y := x == x",
		"z := err == ErrX",
		"fmt.Println(p.String(), f(3))",
		"var a = b\nvar b = \"x\"\nfmt.Println(a)",
		"q := T{1, 2, \"y\"}\nfmt.Printf(\"%v %d\", q, undefinedToo)",
		"func() { var s fmt.Stringer = p; _ = s }()",
	} {
		c := cellOf(t, fset, nil, "", stmts)
		before := 0
		if s.cache != nil {
			before = s.cache.cells
		}
		cached := s.Check(c)
		if s.cache == nil || s.cache.cells != before+1 {
			t.Fatalf("%q was not checked against the checked session", stmts)
		}
		full := s.checkFull(c)
		if got, want := describe(cached, c), describe(full, c); got != want {
			t.Errorf("%q: cached check\n%s\nfull check\n%s", stmts, got, want)
		}
	}
	// A cell that declares, or declares a name of the session again,
	// imports anew, is checked from source.
	for _, c := range []Cell{
		cellOf(t, fset, nil, "func g() {}", "g()"),
		cellOf(t, fset, nil, "", "p := 2"),
		cellOf(t, fset, map[string]string{"strings": "strings"}, "", "_ = strings.ToUpper(\"x\")"),
	} {
		before := s.cache.cells
		s.Check(c)
		if s.cache.cells != before {
			t.Errorf("a cell that must be checked from source was checked against the checked session")
		}
	}
	// One checked session serves any number of cells (each by a checker
	// of its own), and its package does not grow with them.
	first, names := s.cache, len(s.cache.pkg.Scope().Names())
	c := cellOf(t, fset, nil, "", "fmt.Println(p, x)")
	for i := 0; i < 40; i++ {
		if got, want := describe(s.Check(c), c), describe(s.checkFull(c), c); got != want {
			t.Fatalf("cell %d against the checked session: cached check\n%s\nfull check\n%s", i, got, want)
		}
	}
	if s.cache != first || first.cells < 40 {
		t.Errorf("40 cells were not all checked against one checked session")
	}
	if got := len(first.pkg.Scope().Names()); got != names {
		t.Errorf("the checked session's package grew from %d names to %d with the cells it served", names, got)
	}
}

// describe lists the errors of ch and what it recorded for each node of c's
// statements, in source order.
func describe(ch *Checked, c Cell) string {
	q := func(p *types.Package) string { return p.Name() }
	var lines []string
	for _, err := range ch.Errors {
		lines = append(lines, "error: "+err.Error())
	}
	var nodes []string
	for _, st := range c.Stmts {
		ast.Inspect(st, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.Ident:
				if o := ch.Info.Defs[n]; o != nil {
					nodes = append(nodes, fmt.Sprintf("%d def %s", n.Pos(), types.ObjectString(o, q)))
				}
				if o := ch.Info.Uses[n]; o != nil {
					nodes = append(nodes, fmt.Sprintf("%d use %s", n.Pos(), types.ObjectString(o, q)))
				}
			case *ast.SelectorExpr:
				if sel := ch.Info.Selections[n]; sel != nil {
					nodes = append(nodes, fmt.Sprintf("%d sel %s", n.Pos(), sel))
				}
			}
			if x, ok := n.(ast.Expr); ok {
				if tv, ok := ch.Info.Types[x]; ok {
					nodes = append(nodes, fmt.Sprintf("%d-%d type %s %v", x.Pos(), x.End(), types.TypeString(tv.Type, q), tv.Value))
				}
			}
			return true
		})
	}
	sort.Strings(nodes)
	// The names defined anywhere: the engine scans them (a session that
	// defines len gets no bounds checks).
	var defs []string
	for id, o := range ch.Info.Defs {
		// (The cell's function: CheckFunc in the full check, _ in the
		// cached one.)
		if _, fn := o.(*types.Func); !fn || id.Name != "_" && !strings.HasPrefix(id.Name, CheckFunc) {
			defs = append(defs, id.Name)
		}
	}
	sort.Strings(defs)
	lines = append(lines, "defs: "+strings.Join(defs, " "))
	return strings.Join(append(lines, nodes...), "\n")
}
