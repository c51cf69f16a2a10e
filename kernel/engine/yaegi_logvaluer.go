package engine

import (
	"go/ast"
	pathpkg "path"
	"strconv"
)

// log/slog is compiled code: it asks a value whether it is a slog.LogValuer
// through the Go runtime's method sets, which do not hold the methods of a
// type a cell declares. A cell type's LogValue method is never called, and
// slog logs the value's fields instead: the secret that the standard
// library's ExampleLogValuer_secret redacts is printed (issue 24). gocl's
// crossing layer (crossing.go) gives fmt, errors and encoding/json a cell
// value's methods, but not slog. A cell that declares a method
// LogValue() slog.Value is refused before it runs, naming the method and
// what to write instead.

// refuseLogValuers returns the refusal for the cell's first method
// LogValue() slog.Value, or nil.
func (e *Engine) refuseLogValuers(name string, ps []*parsed) *CellError {
	slogNames := e.importNames(ps, "log/slog")
	if len(slogNames) == 0 {
		return nil
	}
	for _, p := range ps {
		if p.kind == kindImport {
			continue
		}
		n := p.node()
		if n == nil {
			continue
		}
		var found *ast.FuncDecl
		ast.Inspect(n, func(n ast.Node) bool {
			if fd, ok := n.(*ast.FuncDecl); ok && found == nil && isLogValuer(fd, slogNames) {
				found = fd
			}
			return found == nil
		})
		if found != nil {
			return e.errorAt(name, "CompileError", "slog cannot call methods of types declared in a cell: log/slog would "+
				"never call this LogValue method and would log the value's fields instead (a value it redacts would be "+
				"printed); pass slog the value LogValue returns (slog.Any(key, v.LogValue())), or put the code in a "+
				"cell that starts with //gocl:compile, which runs it compiled (see the README's limits)", found.Pos(), nil)
		}
	}
	return nil
}

// importNames returns the names under which the session and the cell ps
// import the package path.
func (e *Engine) importNames(ps []*parsed, path string) map[string]bool {
	names := map[string]bool{}
	e.state.Lock()
	for alias, p := range e.imports {
		if p == path {
			names[alias] = true
		}
	}
	e.state.Unlock()
	for _, p := range ps {
		if p.kind != kindImport || p.file == nil {
			continue
		}
		for _, spec := range p.file.Imports {
			if ip, _ := strconv.Unquote(spec.Path.Value); ip == path {
				alias := pathpkg.Base(path)
				if spec.Name != nil {
					alias = spec.Name.Name
				}
				names[alias] = true
			}
		}
	}
	return names
}

// isLogValuer reports whether fd is a method LogValue() X.Value, X one of
// the names of log/slog in slogNames: the method of slog.LogValuer.
func isLogValuer(fd *ast.FuncDecl, slogNames map[string]bool) bool {
	if fd.Recv == nil || fd.Name.Name != "LogValue" || fd.Type.Params.NumFields() != 0 || fd.Type.Results.NumFields() != 1 {
		return false
	}
	sel, ok := fd.Type.Results.List[0].Type.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Value" {
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	return ok && slogNames[id.Name]
}

var passLogValuers = pass{
	name:     "log-valuers",
	bug:      "log/slog does not see a cell type's LogValue method (slog.LogValuer) and logs the fields it would redact: refused",
	file:     "yaegi_logvaluer.go",
	changes:  "refuses",
	userOnly: true,
	run:      func(c *cellRun) *CellError { return c.e.refuseLogValuers(c.name, c.ps) },
}
