package engine

import (
	"go/ast"
	"go/types"
	"strings"

	"github.com/seed43a1e1ab/gocl/kernel/cellmodel"
)

// A cell's top-level statements are one function body, where a name is
// defined from its declaration on: `var (a = b; b = "x")` is Go's
// "undefined: b". The engine declares every top-level name before the body
// runs (body.go), so yaegi would take b as its zero value, a silent wrong
// answer. A cell whose statement uses a name that a later statement of the
// cell declares (and no earlier cell did) is checked with go/types, and
// refused with Go's own diagnostic.

// laterNames returns the names that a top-level statement declares after a
// statement that mentions them, when no earlier cell declared them.
func (e *Engine) laterNames(ps []*parsed) map[string]bool {
	declaredAt := map[string]int{}
	// The units in order: each spec of a var or const statement on its
	// own (var (a = b; b = 1) uses b before it), each other statement whole.
	var stmts []ast.Node
	for _, p := range ps {
		if p.kind != kindStmt || p.body == nil {
			continue
		}
		for _, st := range p.body.List {
			if ds, ok := st.(*ast.DeclStmt); ok {
				if g, ok := ds.Decl.(*ast.GenDecl); ok {
					for _, sp := range g.Specs {
						stmts = append(stmts, sp)
					}
					continue
				}
			}
			stmts = append(stmts, st)
		}
	}
	for i, st := range stmts {
		for _, id := range cellmodel.TopDeclared(st) {
			if _, seen := declaredAt[id.Name]; !seen {
				declaredAt[id.Name] = i
			}
		}
	}
	if len(declaredAt) == 0 {
		return nil
	}
	e.state.Lock()
	for name := range declaredAt {
		if _, earlier := e.decls[name]; earlier {
			delete(declaredAt, name)
		}
	}
	e.state.Unlock()
	found := map[string]bool{}
	for i, st := range stmts {
		ast.Inspect(st, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				if at, ok := declaredAt[id.Name]; ok && at > i {
					found[id.Name] = true
				}
			}
			return true
		})
	}
	return found
}

// refuseUseBeforeDecl returns Go's diagnostic for a use of a name before the
// cell's statement that declares it, or nil.
func (e *Engine) refuseUseBeforeDecl(name string, ps []*parsed, checked *typesErrors) *CellError {
	for _, err := range checked.errs {
		te, ok := err.(types.Error)
		if !ok || !strings.HasPrefix(te.Msg, "undefined: ") {
			continue
		}
		if !checked.later[strings.TrimPrefix(te.Msg, "undefined: ")] {
			continue
		}
		return e.errorAt(name, "CompileError", te.Msg+" (in a cell, the top-level statements run as one function "+
			"body, where a name is defined from its declaration on: declare it before its first use, or in an earlier cell)", te.Pos, nil)
	}
	return nil
}

// typesErrors is what refuseUseBeforeDecl is given: the type errors of the
// cell's check, and the names laterNames found.
type typesErrors struct {
	errs  []error
	later map[string]bool
}
