package engine

import (
	"go/ast"
	"go/token"
	"go/types"
)

// A cell's top-level `x := f(...)` is declared in yaegi's global scope
// before the body runs, by compiling a probe of it there (body_probe.go).
// yaegi v0.16.1 cannot compile a call of a generic function of the
// interpreted standard packages in its global scope when the type
// arguments are inferred from another generic call
// (`all := slices.Collect(slices.Values(s))`, `ks :=
// slices.Sorted(maps.Keys(m))`): the cell was refused, though the same
// statement runs inside a function. Here, in a cell that go/types checked,
// such a statement gets its type written out, as Go infers it:
//
//	all := slices.Collect(slices.Values(s))  →  var all []int = slices.Collect(slices.Values(s))
//
// which yaegi declares from the type alone and runs as an assignment. Only
// a single new name with one value is rewritten, and only when the type can
// be written in the cell's terms; the rest is left to yaegi. Upgrading yaegi
// past this bug means deleting this file and its pass.

// genericDefines lists the top-level statements of the cell that this pass
// may rewrite: `x := v` with v holding a call.
func genericDefines(ps []*parsed) []*ast.AssignStmt {
	var out []*ast.AssignStmt
	for _, p := range ps {
		if p.kind != kindStmt || p.body == nil {
			continue
		}
		for _, st := range p.body.List {
			as, ok := st.(*ast.AssignStmt)
			if !ok || as.Tok != token.DEFINE || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
				continue
			}
			if id, ok := as.Lhs[0].(*ast.Ident); !ok || id.Name == "_" {
				continue
			}
			if hasCall(as.Rhs[0]) {
				out = append(out, as)
			}
		}
	}
	return out
}

// hasCall reports whether x calls something outside a function literal.
func hasCall(x ast.Expr) bool {
	found := false
	ast.Inspect(x, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			found = true
		}
		return !found
	})
	return found
}

// instantiates reports whether x calls a generic function with type
// arguments that go/types inferred or that x writes.
func instantiates(x ast.Expr, info *types.Info) bool {
	found := false
	ast.Inspect(x, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.Ident:
			if inst, ok := info.Instances[n]; ok {
				if _, fn := inst.Type.(*types.Signature); fn {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// typeGenericDefines rewrites the statements of the cell that genericDefines
// found and whose value instantiates a generic function into a var
// declaration with the type of the value written out (see above). qualify
// writes a package as the cell names it.
func typeGenericDefines(ps []*parsed, info *types.Info, qualify func(*types.Package) string) {
	rewrite := map[*ast.AssignStmt]*ast.DeclStmt{}
	for _, as := range genericDefines(ps) {
		id := as.Lhs[0].(*ast.Ident)
		v, ok := info.Defs[id].(*types.Var)
		if !ok || !instantiates(as.Rhs[0], info) {
			continue // not a new variable (not valid Go), or no generic call
		}
		typ, ok := goTypeExpr(v.Type(), qualify, as.Pos())
		if !ok {
			continue
		}
		decl := varDecl(as.Pos(), id, typ)
		decl.Decl.(*ast.GenDecl).Specs[0].(*ast.ValueSpec).Values = as.Rhs
		rewrite[as] = decl
	}
	if len(rewrite) == 0 {
		return
	}
	for _, p := range ps {
		if p.kind != kindStmt || p.body == nil {
			continue
		}
		for i, st := range p.body.List {
			if as, ok := st.(*ast.AssignStmt); ok && rewrite[as] != nil {
				p.body.List[i] = rewrite[as]
			}
		}
	}
}

var passGenericDefines = pass{
	name:     "generic-defines",
	bug:      "a top-level x := of a generic call whose type arguments come from another generic call does not compile in yaegi's global scope (slices.Collect(slices.Values(s)))",
	file:     "yaegi_genericdefine.go",
	reads:    needTypes | needSession,
	changes:  "top-level := of one generic call's value, into var x T = the value",
	userOnly: true,
	needed:   func(c *cellRun) bool { return len(genericDefines(c.ps)) > 0 },
	run: func(c *cellRun) *CellError {
		typeGenericDefines(c.ps, c.checked.Info, c.e.qualifier(c.cross))
		return nil
	},
}
