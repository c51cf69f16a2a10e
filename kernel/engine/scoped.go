package engine

import (
	"go/ast"
	"go/token"
)

// yaegi v0.16.1 fails to compile `a, b := ...` (a call, a comma-ok type
// assertion, map index or receive) inside a block of a statement that runs
// in the global scope — `if ok { v, err := f() }` gives "undefined: v" —
// while the same code inside a function compiles. Cells run their
// statements in the global scope, and this is everyday Go, so the engine
// runs such a compound statement inside a function literal called at once:
// its own variables were local to it anyway, and globals stay reachable.

// inFunc returns st wrapped in func() { st }() when st is a compound
// statement with a multi-name := inside, and st itself otherwise.
func inFunc(st ast.Stmt) ast.Stmt {
	switch st.(type) {
	case *ast.IfStmt, *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt,
		*ast.SelectStmt, *ast.BlockStmt:
	default:
		return st
	}
	if !hasMultiDefine(st) {
		return st
	}
	pos, end := st.Pos(), st.End()
	lit := &ast.FuncLit{
		Type: &ast.FuncType{Func: pos, Params: &ast.FieldList{Opening: pos, Closing: pos}},
		Body: &ast.BlockStmt{Lbrace: pos, List: []ast.Stmt{st}, Rbrace: end},
	}
	return &ast.ExprStmt{X: &ast.CallExpr{Fun: lit, Lparen: end, Rparen: end}}
}

// hasMultiDefine reports whether n holds `a, b := ...` outside any function
// literal (inside one, yaegi compiles it fine).
func hasMultiDefine(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE && len(n.Lhs) > 1 {
				found = true
			}
		}
		return !found
	})
	return found
}

// yaegi v0.16.1 also fails ("nil type") on a comma-ok := in the global scope
// itself: `v, ok := x.(T)` and `v, ok := m[k]`, with := or var. Assigning to
// variables that already exist works, so commaOK declares them first:
//
//	v, ok := x.(T)   →   var v T; var ok bool; v, ok = x.(T)
//	v, ok := m[k]    →   v := m[k]; var ok bool; _, ok = m[k]
//
// The map form reads m[k] twice, so it is used only when m and k are names,
// selectors or literals (no calls whose effects would repeat). A receive
// (v, ok := <-ch) cannot be split this way and is left as written.
func commaOK(st ast.Stmt) []ast.Stmt {
	as, ok := st.(*ast.AssignStmt)
	if !ok || as.Tok != token.DEFINE || len(as.Lhs) != 2 || len(as.Rhs) != 1 {
		return nil
	}
	v, okName := as.Lhs[0].(*ast.Ident), as.Lhs[1].(*ast.Ident)
	if v == nil || okName == nil {
		return nil
	}
	pos := as.Pos()
	declare := func(name *ast.Ident, typ ast.Expr) ast.Stmt {
		return &ast.DeclStmt{Decl: &ast.GenDecl{TokPos: pos, Tok: token.VAR,
			Specs: []ast.Spec{&ast.ValueSpec{Names: []*ast.Ident{{NamePos: name.NamePos, Name: name.Name}}, Type: typ}}}}
	}
	boolType := &ast.Ident{NamePos: pos, Name: "bool"}
	var out []ast.Stmt
	switch x := as.Rhs[0].(type) {
	case *ast.TypeAssertExpr:
		if x.Type == nil { // x.(type) belongs to a type switch
			return nil
		}
		if v.Name != "_" {
			out = append(out, declare(v, x.Type))
		}
		if okName.Name != "_" {
			out = append(out, declare(okName, boolType))
		}
		return append(out, &ast.AssignStmt{Lhs: as.Lhs, TokPos: as.TokPos, Tok: token.ASSIGN, Rhs: as.Rhs})
	case *ast.IndexExpr:
		if !pure(x.X) || !pure(x.Index) {
			return nil
		}
		if v.Name != "_" {
			out = append(out, &ast.AssignStmt{Lhs: []ast.Expr{v}, TokPos: as.TokPos, Tok: token.DEFINE, Rhs: []ast.Expr{x}})
		}
		if okName.Name != "_" {
			out = append(out, declare(okName, boolType),
				&ast.AssignStmt{Lhs: []ast.Expr{&ast.Ident{NamePos: pos, Name: "_"}, okName}, TokPos: as.TokPos, Tok: token.ASSIGN, Rhs: as.Rhs})
		}
		return out
	}
	return nil
}

// pure reports whether evaluating x twice is the same as once: names,
// selectors of names, and basic literals.
func pure(x ast.Expr) bool {
	switch x := x.(type) {
	case *ast.Ident, *ast.BasicLit:
		return true
	case *ast.SelectorExpr:
		return pure(x.X)
	case *ast.ParenExpr:
		return pure(x.X)
	}
	return false
}
