package celltypes

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"
)

// cellOf parses src the way the engine splits a cell: declarations, and
// the statements of main's body.
func cellOf(t *testing.T, fset *token.FileSet, imports map[string]string, decls, stmts string) Cell {
	t.Helper()
	c := Cell{Imports: imports}
	if decls != "" {
		src := "package main\n" + decls
		f, err := parser.ParseFile(fset, "decls.go", src, 0)
		if err != nil {
			t.Fatal(err)
		}
		tf := fset.File(f.Pos())
		for _, d := range f.Decls {
			c.Decls = append(c.Decls, d)
			c.Texts = append(c.Texts, src[tf.Offset(d.Pos()):tf.Offset(d.End())])
		}
	}
	if stmts != "" {
		f, err := parser.ParseFile(fset, "stmts.go", "package main\nfunc main() {\n"+stmts+"\n}", 0)
		if err != nil {
			t.Fatal(err)
		}
		c.Stmts = f.Decls[0].(*ast.FuncDecl).Body.List
		src := "package main\nfunc main() {\n" + stmts + "\n}"
		tf := fset.File(f.Pos())
		text := func(n ast.Node) string { return src[tf.Offset(n.Pos()):tf.Offset(n.End())] }
		for _, st := range c.Stmts {
			c.AddStmt(st, text)
		}
	}
	return c
}

// typeOfArg finds the first call of fun in the cell and returns the type of
// its argument i.
func typeOfArg(ch *Checked, c Cell, fun string, i int) string {
	var got string
	for _, st := range c.Stmts {
		ast.Inspect(st, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || got != "" || exprString(call.Fun) != fun || i >= len(call.Args) {
				return true
			}
			got = types.TypeString(ch.Info.TypeOf(call.Args[i]), func(p *types.Package) string { return p.Name() })
			return false
		})
	}
	return got
}

func exprString(x ast.Expr) string {
	switch x := x.(type) {
	case *ast.Ident:
		return x.Name
	case *ast.SelectorExpr:
		return exprString(x.X) + "." + x.Sel.Name
	}
	return ""
}

func TestCellsSeeEarlierCells(t *testing.T) {
	fset := token.NewFileSet()
	s := New(fset, importer.ForCompiler(fset, "source", nil), map[string]string{"fmt": "fmt"})
	steps := []struct {
		decls, stmts, fun string
		arg               int
		want              string
	}{
		{"type Level int\ntype T struct{ A int; hidden string }", "t := T{1, \"h\"}\nfmt.Println(t)", "fmt.Println", 0, "main.T"},
		// a method in a later cell than its type belongs to the type
		{"func (l Level) String() string { return \"L\" }", "ls := []Level{1, 2}\nfmt.Println(ls, t.hidden)", "fmt.Println", 1, "string"},
		{"", "fmt.Println(ls, &t)", "fmt.Println", 1, "*main.T"},
		// a statement's variable takes a new type when declared again
		{"", "t := \"now a string\"\nfmt.Println(t)", "fmt.Println", 0, "string"},
		{"", "fmt.Println(t, 1)", "fmt.Println", 0, "string"},
		{"import \"errors\"\ntype QE struct{ Q string }\nfunc (q *QE) Error() string { return q.Q }", "err := fmt.Errorf(\"x: %w\", &QE{\"q\"})\nvar qe *QE\nfmt.Println(errors.As(err, &qe), ls)", "errors.As", 1, "**main.QE"},
	}
	for i, st := range steps {
		imports := map[string]string{}
		decls := st.decls
		if strings.HasPrefix(decls, "import ") {
			line, rest, _ := strings.Cut(decls, "\n")
			p := strings.Trim(strings.TrimPrefix(line, "import "), `"`)
			imports[p] = p
			decls = rest
		}
		c := cellOf(t, fset, imports, decls, st.stmts)
		ch := s.Check(c)
		for _, err := range ch.Errors {
			if !strings.Contains(err.Error(), "declared and not used") {
				t.Errorf("step %d: unexpected type error: %v", i, err)
			}
		}
		if got := typeOfArg(ch, c, st.fun, st.arg); got != st.want {
			t.Errorf("step %d: type of %s's argument %d = %q, want %q", i, st.fun, st.arg, got, st.want)
		}
		s.Commit(c)
	}
	lv := s.decls["Level"]
	if lv == nil {
		t.Fatal("Level was not kept")
	}
	if _, ok := s.decls["Level.String"]; !ok {
		t.Error("the method Level.String was not kept")
	}
}

func TestMethodSetOfLaterCell(t *testing.T) {
	fset := token.NewFileSet()
	s := New(fset, importer.ForCompiler(fset, "source", nil), map[string]string{"fmt": "fmt"})
	s.Commit(cellOf(t, fset, nil, "type Color int", ""))
	s.Commit(cellOf(t, fset, nil, "func (c Color) String() string { return \"c\" }", ""))
	ch := s.Check(cellOf(t, fset, nil, "", "c := Color(1)\nfmt.Println(c)"))
	obj := ch.Pkg.Scope().Lookup("Color")
	if obj == nil {
		t.Fatal("Color is not declared in the new cell's check")
	}
	ms := types.NewMethodSet(obj.Type())
	if ms.Lookup(ch.Pkg, "String") == nil {
		t.Errorf("Color's method set lacks String: %v", ms)
	}
}

func TestTypeErrorsDoNotStopTheCheck(t *testing.T) {
	fset := token.NewFileSet()
	s := New(fset, importer.ForCompiler(fset, "source", nil), map[string]string{"fmt": "fmt"})
	c := cellOf(t, fset, nil, "type P struct{ X int }", "undefinedCall(3)\np := P{2}\nfmt.Println(p)")
	ch := s.Check(c)
	if len(ch.Errors) == 0 {
		t.Error("the undefined call gave no error")
	}
	if got := typeOfArg(ch, c, "fmt.Println", 0); got != "main.P" {
		t.Errorf("after an error, the argument's type = %q, want main.P", got)
	}
}

// TestCellFunctionSeesCellStatementVariable: a function of a cell may use
// a variable its own statements declare (a session variable, as in later
// cells), so both the function's body and the statements are typed.
func TestCellFunctionSeesCellStatementVariable(t *testing.T) {
	fset := token.NewFileSet()
	s := New(fset, importer.ForCompiler(fset, "source", nil), map[string]string{"fmt": "fmt"})
	c := cellOf(t, fset, nil, "type E struct{ s string }\nfunc find() *E { return sentinel }",
		"sentinel := &E{\"x\"}\nfmt.Println(find() == sentinel)")
	ch := s.Check(c)
	for _, err := range ch.Errors {
		if strings.Contains(err.Error(), "undefined") {
			t.Errorf("the check says %v", err)
		}
	}
	var found bool
	for _, d := range c.Decls {
		ast.Inspect(d, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && id.Name == "sentinel" {
				found = true
				if got := types.TypeString(ch.Info.TypeOf(id), func(p *types.Package) string { return p.Name() }); got != "*main.E" {
					t.Errorf("sentinel in find has type %q, want *main.E", got)
				}
			}
			return true
		})
	}
	if !found {
		t.Fatal("the test's function does not use sentinel")
	}
}
