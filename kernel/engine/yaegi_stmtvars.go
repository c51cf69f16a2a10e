package engine

import (
	"go/ast"
	"regexp"
	"strings"

	"github.com/seed43a1e1ab/gocl/kernel/cellmodel"
)

// A cell's functions, types and methods are compiled before its statements
// run (they are package-level; the statements are one function body), so a
// function cannot use a variable that a top-level statement of the same
// cell declares: `func Bar() { Obj.Foo() }` with `var Obj = &T{}` below it
// fails with "undefined: Obj", or with yaegi's "constant definition loop".
// Go would say the same of that function body, but the cell reads as a
// program whose var is package-level, so the error says what the limit is
// and what to write (yaegi's method22, method26, type12, const26 in
// notebook form).

// undefinedRE matches an undefined-name diagnostic.
var undefinedNameRE = regexp.MustCompile(`^undefined: (\w+)`)

// explainStmtVars returns err, a compile error of the cell code, or, when
// the cause is that a function of the cell uses a variable a statement of
// the cell declares, a copy that says so and what to write (a copy is
// gocl's own error, which triage.go leaves as it is).
func (e *Engine) explainStmtVars(again func() *reparsed, err *CellError) *CellError {
	if err == nil || err.Name != "CompileError" || len(err.Traceback) == 0 {
		return err
	}
	m := undefinedNameRE.FindStringSubmatch(err.Value)
	loop := strings.Contains(err.Value, "definition loop")
	if m == nil && !loop {
		return err
	}
	re := again()
	if re == nil || re.model.Program {
		return err
	}
	stmtVars := map[string]bool{}
	var funcs []ast.Node
	for _, p := range re.model.Parts {
		switch p.Kind {
		case kindStmt:
			for _, st := range p.Body.List {
				if ds, ok := st.(*ast.DeclStmt); ok {
					if g, ok := ds.Decl.(*ast.GenDecl); ok {
						for _, sp := range g.Specs {
							for _, id := range cellmodel.TopDeclared(sp) {
								stmtVars[id.Name] = true
							}
						}
						continue
					}
				}
				for _, id := range cellmodel.TopDeclared(st) {
					stmtVars[id.Name] = true
				}
			}
		case kindDecl:
			for _, d := range p.File.Decls {
				funcs = append(funcs, d)
			}
		}
	}
	name := ""
	if m != nil && stmtVars[m[1]] {
		name = m[1]
	}
	if loop {
		for _, d := range funcs {
			ast.Inspect(d, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok && stmtVars[id.Name] && name == "" {
					name = id.Name
				}
				return name == ""
			})
		}
	}
	if name == "" {
		return err
	}
	note := " (in a cell, functions and types are compiled before the cell's statements run, and " + name +
		" is declared by a statement of this cell: declare it in an earlier cell, or paste the program whole with its " +
		"package clause, where var declarations are package-level)"
	explained := *err
	explained.Value += note
	explained.Traceback = append([]string{err.Traceback[0] + note}, err.Traceback[1:]...)
	return &explained
}
