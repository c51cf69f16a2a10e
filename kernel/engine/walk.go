package engine

import (
	"go/ast"
	"go/token"
)

// The parsed code of a cell, walked by the rewrites that decide from it
// whether the cell needs them.

// cellNodes are the parsed code of the cell's chunks (those that parsed).
func cellNodes(ps []*parsed) []ast.Node {
	var ns []ast.Node
	for _, p := range ps {
		if n := p.node(); n != nil {
			ns = append(ns, n)
		}
	}
	return ns
}

// bodies are the statements of the cell's chunks and the bodies of its
// functions: where a rewrite into a function literal may stand (yaegi
// compiles a package-level `var _ = I((*T)(nil))` alone, before the types
// a literal there would name).
func bodies(ps []*parsed) []ast.Node {
	var ns []ast.Node
	for _, p := range ps {
		switch {
		case p.body != nil:
			ns = append(ns, p.body)
		case p.file != nil:
			for _, d := range p.file.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
					ns = append(ns, fd.Body)
				}
			}
		}
	}
	return ns
}

// anyNode reports whether pred holds for a node under one of ns; the walk
// stops at the first that does.
func anyNode(ns []ast.Node, pred func(ast.Node) bool) bool {
	found := false
	for _, n := range ns {
		ast.Inspect(n, func(n ast.Node) bool {
			if !found && n != nil && pred(n) {
				found = true
			}
			return !found
		})
		if found {
			return true
		}
	}
	return false
}

// cellTypeSpecs returns the type specs the cell declares at top level, in
// order.
func cellTypeSpecs(ps []*parsed) []*ast.TypeSpec {
	var out []*ast.TypeSpec
	for _, p := range ps {
		if p.file == nil {
			continue
		}
		for _, d := range p.file.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.TYPE {
				for _, sp := range g.Specs {
					out = append(out, sp.(*ast.TypeSpec))
				}
			}
		}
	}
	return out
}
