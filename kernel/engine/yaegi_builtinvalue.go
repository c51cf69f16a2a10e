package engine

import (
	"go/ast"
	"go/token"
)

// A builtin function used as a value (`f := println`) is Go's "use of
// builtin println not in function call"; at a cell's top level, yaegi's
// compiler crashed on it instead (yaegi's bltn0 in notebook form), so the
// cell is refused with Go's words first.

// builtinFuncs are the builtin functions of the universe scope.
var builtinFuncs = map[string]bool{"append": true, "cap": true, "clear": true, "close": true, "complex": true,
	"copy": true, "delete": true, "imag": true, "len": true, "make": true, "max": true, "min": true, "new": true,
	"panic": true, "print": true, "println": true, "real": true, "recover": true}

// refuseBuiltinValues returns Go's error for the first builtin function of
// the cell's statements that is not called, unless a cell declares a name
// like it.
func (e *Engine) refuseBuiltinValues(name string, ps []*parsed) *CellError {
	var found *ast.Ident
	for _, p := range ps {
		if p.body == nil || found != nil {
			continue
		}
		called := map[*ast.Ident]bool{}
		ast.Inspect(p.body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok {
					called[id] = true
				}
			case *ast.SelectorExpr:
				called[n.Sel] = true // a field or method named len
			case *ast.KeyValueExpr:
				if id, ok := n.Key.(*ast.Ident); ok {
					called[id] = true // a field key
				}
			case *ast.FuncLit, *ast.FuncDecl, *ast.BlockStmt:
				// Inner scopes may declare a len of their own; only the
				// top-level statements are checked.
				return n == ast.Node(p.body)
			case *ast.Ident:
				if builtinFuncs[n.Name] && n.Obj == nil && !called[n] && found == nil {
					found = n
				}
			}
			return found == nil
		})
	}
	if found == nil {
		return nil
	}
	e.state.Lock()
	_, declared := e.decls[found.Name]
	e.state.Unlock()
	if declared || declaresName(ps, found.Name) {
		return nil
	}
	return e.errorAt(name, "CompileError", "use of builtin "+found.Name+" not in function call", found.Pos(), nil)
}

// declaresName reports whether the cell declares name at its top level.
func declaresName(ps []*parsed, name string) bool {
	found := false
	for _, p := range ps {
		if n := p.node(); n != nil {
			ast.Inspect(n, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.FuncDecl:
					found = found || n.Recv == nil && n.Name.Name == name
				case *ast.ValueSpec:
					for _, id := range n.Names {
						found = found || id.Name == name
					}
				case *ast.TypeSpec:
					found = found || n.Name.Name == name
				case *ast.AssignStmt:
					if n.Tok == token.DEFINE {
						for _, l := range n.Lhs {
							if id, ok := l.(*ast.Ident); ok {
								found = found || id.Name == name
							}
						}
					}
				}
				return !found
			})
		}
	}
	return found
}

var passBuiltinValues = pass{
	name:     "builtin-values",
	bug:      "yaegi's compiler crashes on a builtin used as a value at a cell's top level (f := println; yaegi's bltn0)",
	file:     "yaegi_builtinvalue.go",
	changes:  "refuses",
	userOnly: true,
	run:      func(c *cellRun) *CellError { return c.e.refuseBuiltinValues(c.name, c.ps) },
}
