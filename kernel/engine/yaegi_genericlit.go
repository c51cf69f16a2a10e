package engine

import (
	"go/ast"
)

// yaegi v0.16.1 stops a function silently, at the statement, when it
// assigns a composite literal of an instantiated generic type with methods
// (`m = Map[string, float64]{}`) to a global variable that was declared
// from that same literal at the global level: the statements after it
// never run and no error is raised. A cell's top-level `m := Map[string,
// float64]{}` is exactly that: its probe (body_probe.go) declares
// `__gocl_p0 := Map[string, float64]{}` globally and the cell's body then
// assigns the literal (yaegi's gen13 in notebook form printed nothing).
// A global declared with the type alone has no such bug, so such a probe
// declares the variable by the literal's type:
//
//	m := Map[string, float64]{}   probe: var __gocl_p0 Map[string, float64]
//
// (the body assigns the value, as for every probe). Upgrading yaegi past
// this bug means deleting this file and its calls.

// genericLitProbes returns the probes for `lhs := rhs` when every value is
// a composite literal of an instantiated generic type (see above): one
// typed var declaration a name. ok is false otherwise.
func genericLitProbes(lhs, rhs []ast.Expr) (probes []ast.Stmt, ok bool) {
	if len(lhs) != len(rhs) {
		return nil, false
	}
	for i, r := range rhs {
		t := genericLitType(r)
		if t == nil {
			return nil, false
		}
		if id := lhs[i].(*ast.Ident); id.Name != "_" {
			probes = append(probes, varDecl(id.Pos(), id, t))
		}
	}
	return probes, true
}

// genericLitSpec returns the type and values of the probe of a `var names
// [typ] = values` declaration: the literal's type and no values when the
// declaration has no type and its one value is a composite literal of an
// instantiated generic type (see above), typ and values otherwise.
func genericLitSpec(names int, typ ast.Expr, values []ast.Expr) (ast.Expr, []ast.Expr) {
	if typ != nil || names != 1 || len(values) != 1 {
		return typ, values
	}
	if t := genericLitType(values[0]); t != nil {
		return t, nil
	}
	return typ, values
}

// genericLitType is the type of x when x is a composite literal of an
// instantiated generic type (G[int]{...}, pkg.G[K, V]{...}), or nil.
func genericLitType(x ast.Expr) ast.Expr {
	lit, ok := ast.Unparen(x).(*ast.CompositeLit)
	if !ok {
		return nil
	}
	switch lit.Type.(type) {
	case *ast.IndexExpr, *ast.IndexListExpr:
		return lit.Type
	}
	return nil
}
