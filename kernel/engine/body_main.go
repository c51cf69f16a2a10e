// A cell's func main, and what a failed cell leaves declared (see body.go).

package engine

import (
	"fmt"
	"go/ast"
	"go/token"
)

// mainName is what a cell's func main is renamed to: yaegi would run a
// function called main after every later cell.
const mainName = helperPrefix + "main"

// renameMain renames the cell's func main, and every use of the name main
// in the cell, to mainName, and returns the position of the declaration
// (token.NoPos when the cell declares no main).
func renameMain(ps []*parsed) token.Pos {
	var pos token.Pos
	visit := func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			if n.Recv == nil && n.Name.Name == "main" {
				pos = n.Pos()
			}
		case *ast.SelectorExpr:
			ast.Inspect(n.X, func(m ast.Node) bool { renameIdent(m); return true })
			return false
		}
		renameIdent(n)
		return true
	}
	for _, p := range ps {
		switch {
		case p.file != nil: // not its package clause, which wraps every chunk
			for _, d := range p.file.Decls {
				ast.Inspect(d, visit)
			}
		case p.body != nil:
			ast.Inspect(p.body, visit)
		}
	}
	return pos
}

func renameIdent(n ast.Node) {
	if id, ok := n.(*ast.Ident); ok && id.Name == "main" {
		id.Name = mainName
	}
}

// dropFailed records the fresh names of a body that failed at statement
// failed (-1: before it ran) as dropped, and clears the others.
func (e *Engine) dropFailed(cell string, b *cellBody, failed int) {
	e.state.Lock()
	defer e.state.Unlock()
	for n, i := range b.fresh {
		if failed < 0 || i >= failed {
			e.dropped[n] = cell
			delete(e.decls, n)
		} else {
			delete(e.dropped, n)
		}
	}
}

// keepFresh clears the dropped mark of the names a body declared.
func (e *Engine) keepFresh(b *cellBody) {
	e.state.Lock()
	defer e.state.Unlock()
	for n := range b.fresh {
		delete(e.dropped, n)
	}
}

func (e *Engine) isDropped(name string) bool {
	e.state.Lock()
	defer e.state.Unlock()
	_, ok := e.dropped[name]
	return ok
}

// checkDropped refuses a cell that uses a dropped name without declaring
// it: the parser resolves the names a chunk declares itself, so an
// unresolved identifier refers to a global.
func (e *Engine) checkDropped(cell string, ps []*parsed) *CellError {
	e.state.Lock()
	dropped := make(map[string]string, len(e.dropped))
	for n, c := range e.dropped {
		dropped[n] = c
	}
	e.state.Unlock()
	if len(dropped) == 0 {
		return nil
	}
	var found *ast.Ident
	for _, p := range ps {
		var root ast.Node
		switch {
		case p.body != nil:
			root = p.body
		case p.file != nil:
			root = p.file
		default:
			continue
		}
		declared := map[string]bool{}
		if p.file != nil {
			for _, d := range p.file.Decls {
				if f, ok := d.(*ast.FuncDecl); ok && f.Recv == nil {
					declared[f.Name.Name] = true
				}
			}
		}
		ast.Inspect(root, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SelectorExpr:
				ast.Inspect(n.X, func(m ast.Node) bool {
					if id, ok := m.(*ast.Ident); ok && found == nil && id.Obj == nil && !declared[id.Name] && dropped[id.Name] != "" {
						found = id
					}
					return found == nil
				})
				return false
			case *ast.KeyValueExpr:
				ast.Inspect(n.Value, func(m ast.Node) bool {
					if id, ok := m.(*ast.Ident); ok && found == nil && id.Obj == nil && !declared[id.Name] && dropped[id.Name] != "" {
						found = id
					}
					return found == nil
				})
				return false
			case *ast.Ident:
				if found == nil && n.Obj == nil && !declared[n.Name] && dropped[n.Name] != "" {
					found = n
				}
			}
			return found == nil
		})
		if found != nil {
			return e.errorAt(cell, "CompileError", fmt.Sprintf("undefined: %s (%s declared it, but failed before that statement ran; "+
				"run that cell again, or declare %s here)", found.Name, cellLabel(dropped[found.Name]), found.Name), found.Pos(), nil)
		}
	}
	return nil
}
