package engine

import (
	"go/ast"
	"strconv"
)

// iter.Pull and iter.Pull2 need the Go runtime's coroutines, which
// interpreted code does not have; the interpreted iter package
// (kernel/symbols/stdlib/generic) makes them panic with what to do
// instead. A cell that calls one is refused before it runs, with the same
// words, so that it does not print half its output first (our corpus's
// range_func).

// refuseIterPull returns the refusal for the cell's first use of iter.Pull
// or iter.Pull2, or nil.
func (e *Engine) refuseIterPull(name string, ps []*parsed) *CellError {
	iterNames := map[string]bool{}
	e.state.Lock()
	for alias, path := range e.imports {
		if path == "iter" {
			iterNames[alias] = true
		}
	}
	e.state.Unlock()
	for _, p := range ps {
		if p.kind != kindImport || p.file == nil {
			continue
		}
		for _, spec := range p.file.Imports {
			if path, _ := strconv.Unquote(spec.Path.Value); path == "iter" {
				alias := "iter"
				if spec.Name != nil {
					alias = spec.Name.Name
				}
				iterNames[alias] = true
			}
		}
	}
	if len(iterNames) == 0 {
		return nil
	}
	var found *ast.SelectorExpr
	for _, p := range ps {
		if p.kind == kindImport || found != nil {
			continue
		}
		if n := p.node(); n != nil {
			ast.Inspect(n, func(n ast.Node) bool {
				if s, ok := n.(*ast.SelectorExpr); ok && (s.Sel.Name == "Pull" || s.Sel.Name == "Pull2") {
					if id, ok := s.X.(*ast.Ident); ok && iterNames[id.Name] && found == nil {
						found = s
					}
				}
				return found == nil
			})
		}
	}
	if found == nil {
		return nil
	}
	return e.errorAt(name, "CompileError", "iter."+found.Sel.Name+" is not supported in a cell: it needs the Go runtime's coroutines, "+
		"which interpreted cells do not have; collect the values with slices.Collect(seq), or call seq with a func that "+
		"handles each value", found.Pos(), nil)
}

var passIterPull = pass{
	name:     "iter-pull",
	bug:      "iter.Pull needs the runtime's coroutines, which interpreted code lacks: refused before the cell prints half its output",
	file:     "yaegi_iterpull.go",
	changes:  "refuses",
	userOnly: true,
	run:      func(c *cellRun) *CellError { return c.e.refuseIterPull(c.name, c.ps) },
}
