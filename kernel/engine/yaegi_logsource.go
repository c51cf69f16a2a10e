package engine

import "go/ast"

// log's Lshortfile and Llongfile flags and slog's HandlerOptions.AddSource
// make compiled code ask the Go runtime for its caller's file and line
// (runtime.Caller). A cell's call is interpreted: the runtime sees yaegi's
// frames, and log printed "value.go:369: " or "restricted.go:75: " where
// Go prints the program's "main.go:15: " (issue 24: the standard library's
// ExampleLogger, ExampleLogger_Output, Example_wrapping), a false position
// with no error. No position that gocl could give would be the one Go
// prints (a cell is not main.go), so a cell that names one of those flags
// is refused before it runs, with what to write instead.

// refuseLogSource returns the refusal for the cell's first use of
// log.Lshortfile, log.Llongfile or slog.HandlerOptions{AddSource: ...},
// or nil.
func (e *Engine) refuseLogSource(name string, ps []*parsed) *CellError {
	logNames, slogNames := e.importNames(ps, "log"), e.importNames(ps, "log/slog")
	if len(logNames) == 0 && len(slogNames) == 0 {
		return nil
	}
	var found ast.Node
	what := ""
	for _, p := range ps {
		if p.kind == kindImport || found != nil {
			continue
		}
		n := p.node()
		if n == nil {
			continue
		}
		ast.Inspect(n, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SelectorExpr:
				if id, ok := n.X.(*ast.Ident); ok && logNames[id.Name] && (n.Sel.Name == "Lshortfile" || n.Sel.Name == "Llongfile") {
					found, what = n, "log."+n.Sel.Name
				}
			case *ast.CompositeLit:
				if sel, ok := n.Type.(*ast.SelectorExpr); ok && sel.Sel.Name == "HandlerOptions" {
					if id, ok := sel.X.(*ast.Ident); ok && slogNames[id.Name] {
						for _, elt := range n.Elts {
							kv, ok := elt.(*ast.KeyValueExpr)
							if !ok {
								continue
							}
							if k, ok := kv.Key.(*ast.Ident); ok && k.Name == "AddSource" {
								if v, ok := kv.Value.(*ast.Ident); !ok || v.Name != "false" {
									found, what = kv, "slog's AddSource"
								}
							}
						}
					}
				}
			}
			return found == nil
		})
	}
	if found == nil {
		return nil
	}
	return e.errorAt(name, "CompileError", what+" cannot name a cell's file and line: compiled log code asks the Go "+
		"runtime for its caller, which in a cell is the interpreter (yaegi), so it would print one of yaegi's files "+
		"(value.go:369) where Go prints main.go and the line; leave "+what+" out, and put the position in the message "+
		"yourself if you need one", found.Pos(), nil)
}

var passLogSource = pass{
	name:     "log-source",
	bug:      "log's Lshortfile and Llongfile and slog's AddSource print yaegi's file and line (value.go:369), not the cell's: refused",
	file:     "yaegi_logsource.go",
	changes:  "refuses",
	userOnly: true,
	run:      func(c *cellRun) *CellError { return c.e.refuseLogSource(c.name, c.ps) },
}
