package engine

import (
	"fmt"
	"go/ast"
	"go/token"
)

// yaegi v0.16.1 fails a parallel assignment to variables of the global
// scope when a value must become an interface: `a, b = S(1), S(2)` with
// `var a, b fmt.Stringer` at a cell's top level panics ("reflect.Set:
// value of type stdlib._fmt_Stringer is not assignable to type int"), and
// so does `var e1, e2 error = &E{"x"}, &E{"y"}`, which the cell's body runs
// as such an assignment (body.go). The same assignments to locals work. So
// the body assigns through locals of a block, which is the same Go: every
// value is evaluated before the first variable is set.
//
//	a, b = x, y  →  { __gocl_m0, __gocl_m1 := x, y; a = __gocl_m0; b = __gocl_m1 }
//
// A `var a, b T = x, y` declares its locals with T. Upgrading yaegi past
// this bug means deleting this file and its calls in body.go.

// parallelAssign returns the block for a parallel assignment of values to
// the identifiers lhs, or nil when the form is not one to change: a single
// value or a multi-valued call, or (typ nil) a value that is an untyped
// constant or a name, whose local would take another type than the
// variable's.
func parallelAssign(pos, end token.Pos, lhs, rhs []ast.Expr, typ ast.Expr, isVar func(string) bool) ast.Stmt {
	if len(lhs) < 2 || len(lhs) != len(rhs) {
		return nil
	}
	for _, l := range lhs {
		if _, ok := l.(*ast.Ident); !ok {
			return nil // an index or a field: Go evaluates its operands first
		}
	}
	if typ == nil {
		for _, r := range rhs {
			if !typedValue(r, isVar) {
				return nil
			}
		}
	}
	tmp := make([]ast.Expr, len(lhs))
	for i := range lhs {
		tmp[i] = &ast.Ident{NamePos: pos, Name: fmt.Sprintf("%sm%d", helperPrefix, i)}
	}
	var first ast.Stmt = &ast.AssignStmt{Lhs: tmp, TokPos: pos, Tok: token.DEFINE, Rhs: rhs}
	if typ != nil {
		names := make([]*ast.Ident, len(tmp))
		for i, t := range tmp {
			names[i] = t.(*ast.Ident)
		}
		first = &ast.DeclStmt{Decl: &ast.GenDecl{TokPos: pos, Tok: token.VAR,
			Specs: []ast.Spec{&ast.ValueSpec{Names: names, Type: typ, Values: rhs}}}}
	}
	list := []ast.Stmt{first}
	for i, l := range lhs {
		if l.(*ast.Ident).Name == "_" {
			// Nothing is assigned to _ (the local is used: it is read here
			// by no one, which yaegi accepts).
			continue
		}
		list = append(list, &ast.AssignStmt{Lhs: []ast.Expr{l}, TokPos: pos, Tok: token.ASSIGN, Rhs: []ast.Expr{tmp[i]}})
	}
	return &ast.BlockStmt{Lbrace: pos, List: list, Rbrace: end}
}

// typedValue reports whether x, as written, has a type of its own that a
// local declared from it takes as the variable it is assigned to would:
// a variable, a call (or conversion), a composite literal or its address.
// (An untyped constant or a name of one would make the local int or
// float64.)
func typedValue(x ast.Expr, isVar func(string) bool) bool {
	switch x := x.(type) {
	case *ast.ParenExpr:
		return typedValue(x.X, isVar)
	case *ast.Ident:
		switch x.Name {
		case "true", "false", "nil", "iota", "_":
			return false
		}
		return isVar(x.Name)
	case *ast.CallExpr, *ast.CompositeLit:
		return true
	case *ast.UnaryExpr:
		_, lit := x.X.(*ast.CompositeLit)
		return x.Op == token.AND && lit
	}
	return false
}

// isKnownVar reports whether name is a variable a cell declared (so a
// local declared from it has its type), not a constant or another name.
func (e *Engine) isKnownVar(name string) bool {
	e.state.Lock()
	defer e.state.Unlock()
	d, ok := e.decls[name]
	return ok && d.Kind == "var"
}

// yaegi v0.16.1 also drops a target of a parallel assignment (`=`, not `:=`)
// when a string constant goes with a call or a composite literal: after
// `s, n = "x", len(xs)` or `s, arr = "x", [2]int{1, 2}` (in a function, too)
// s keeps its old value. Parenthesized values take another path in its
// compiler, which is right, so every call and composite literal of such an
// assignment is parenthesized (the same Go):
//
//	s, n = "x", len(xs)  →  s, n = "x", (len(xs))

// parenParallelValues parenthesizes the values of the parallel assignments
// under n.
func parenParallelValues(n ast.Node) {
	ast.Inspect(n, func(n ast.Node) bool {
		if s, ok := n.(*ast.AssignStmt); ok && s.Tok == token.ASSIGN && len(s.Lhs) > 1 && len(s.Lhs) == len(s.Rhs) {
			for i, r := range s.Rhs {
				switch r.(type) {
				case *ast.CallExpr, *ast.CompositeLit:
					// Only these: a parenthesized constant breaks the
					// assignment of a function value beside it instead.
					s.Rhs[i] = &ast.ParenExpr{Lparen: r.Pos(), X: r, Rparen: r.End()}
				}
			}
		}
		return true
	})
}

var passParallelValues = pass{
	name:     "parallel-values",
	bug:      "a parallel assignment drops a target when a string constant goes with a call or a composite literal (s, n = \"x\", len(xs))",
	file:     "yaegi_parallel.go",
	changes:  "parenthesizes the calls and composite literals assigned in parallel",
	userOnly: true,
	chunk: func(c *cellRun, p *parsed) {
		if n := p.node(); n != nil {
			parenParallelValues(n)
		}
	},
}
