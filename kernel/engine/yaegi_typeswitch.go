package engine

import (
	"fmt"
	"go/ast"
	"go/token"
	"sync/atomic"
)

// yaegi v0.16.1 never matches an interface case of a type switch on a value
// of a compiled type: `case error:` takes the default for io.EOF, and
// `case fmt.Stringer:` for time.Second, a silent wrong answer. Its comma-ok
// assertion gets the same questions right, so a cell's type switches are
// rewritten into expression switches over comma-ok assertions, case by case
// in Go's order, the bound name taking the case's type where the case names
// one type and the switched value otherwise:
//
//	switch t := x.(type) {          {
//	case error:                         v := x
//	    A                               switch {
//	case int, string:                   case func() bool { _, ok := v.(error); return ok }():
//	    B                                   t := v.(error); A
//	default:                            case ...int... || ...string...:
//	    C                                   t := v; B
//	}                                   default:
//	                                        t := v; C
//	                                    }
//	                                }
//
// A break in a case still leaves the switch, and a label on the switch moves
// with it. Upgrading yaegi past this bug means deleting this file and its
// one call.

var typeSwitchSeq atomic.Int64

// rewriteTypeSwitches rewrites every type switch under n (see above).
func rewriteTypeSwitches(n ast.Node) {
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BlockStmt:
			rewriteList(n.List)
		case *ast.CaseClause:
			rewriteList(n.Body)
		case *ast.CommClause:
			rewriteList(n.Body)
		}
		return true
	})
}

func rewriteList(list []ast.Stmt) {
	for i, st := range list {
		switch s := st.(type) {
		case *ast.TypeSwitchStmt:
			list[i] = exprSwitch(s, nil)
		case *ast.LabeledStmt:
			if ts, ok := s.Stmt.(*ast.TypeSwitchStmt); ok {
				list[i] = exprSwitch(ts, s)
			}
		}
	}
}

// exprSwitch returns the block that replaces ts (labelled by label, if not
// nil). Nested type switches are rewritten by the caller's walk, which
// visits the new block's case bodies afterwards.
func exprSwitch(ts *ast.TypeSwitchStmt, label *ast.LabeledStmt) ast.Stmt {
	pos := ts.Pos()
	id := func(name string) *ast.Ident { return &ast.Ident{NamePos: pos, Name: name} }
	val := fmt.Sprintf("%sts%d", helperPrefix, typeSwitchSeq.Add(1))

	var bound string // the name the switch binds, if any
	var subject ast.Expr
	switch a := ts.Assign.(type) {
	case *ast.AssignStmt: // t := x.(type)
		bound = a.Lhs[0].(*ast.Ident).Name
		subject = a.Rhs[0].(*ast.TypeAssertExpr).X
	case *ast.ExprStmt: // x.(type)
		subject = a.X.(*ast.TypeAssertExpr).X
	default:
		return ts
	}

	var outer []ast.Stmt
	if ts.Init != nil {
		outer = append(outer, ts.Init)
	}
	outer = append(outer, &ast.AssignStmt{Lhs: []ast.Expr{id(val)}, TokPos: pos, Tok: token.DEFINE, Rhs: []ast.Expr{subject}})

	sw := &ast.SwitchStmt{Switch: ts.Switch, Body: &ast.BlockStmt{Lbrace: ts.Body.Lbrace, Rbrace: ts.Body.Rbrace}}
	for _, c := range ts.Body.List {
		cc := c.(*ast.CaseClause)
		var cond ast.Expr
		for _, t := range cc.List {
			var test ast.Expr
			if isNilIdent(t) {
				test = &ast.BinaryExpr{X: id(val), OpPos: pos, Op: token.EQL, Y: id("nil")}
			} else {
				// A nil interface matches no type (yaegi's comma-ok
				// assertion panics on it).
				test = &ast.BinaryExpr{X: &ast.BinaryExpr{X: id(val), OpPos: pos, Op: token.NEQ, Y: id("nil")},
					OpPos: pos, Op: token.LAND, Y: assertsOK(id(val), t, pos)}
			}
			if cond == nil {
				cond = test
			} else {
				cond = &ast.BinaryExpr{X: cond, OpPos: pos, Op: token.LOR, Y: test}
			}
		}
		var body []ast.Stmt
		if bound != "" {
			var value ast.Expr = id(val)
			if len(cc.List) == 1 && !isNilIdent(cc.List[0]) {
				value = &ast.TypeAssertExpr{X: id(val), Lparen: pos, Type: cc.List[0], Rparen: pos}
			}
			body = append(body,
				&ast.AssignStmt{Lhs: []ast.Expr{id(bound)}, TokPos: pos, Tok: token.DEFINE, Rhs: []ast.Expr{value}},
				&ast.AssignStmt{Lhs: []ast.Expr{id("_")}, TokPos: pos, Tok: token.ASSIGN, Rhs: []ast.Expr{id(bound)}})
		}
		body = append(body, cc.Body...)
		clause := &ast.CaseClause{Case: cc.Case, Colon: cc.Colon, Body: body}
		if cond != nil {
			clause.List = []ast.Expr{cond}
		}
		sw.Body.List = append(sw.Body.List, clause)
	}
	var inner ast.Stmt = sw
	if label != nil {
		inner = &ast.LabeledStmt{Label: label.Label, Colon: label.Colon, Stmt: sw}
	}
	outer = append(outer, inner)
	return &ast.BlockStmt{Lbrace: pos, List: outer, Rbrace: ts.End()}
}

// assertsOK is func() bool { _, ok := v.(T); return ok }().
func assertsOK(v ast.Expr, t ast.Expr, pos token.Pos) ast.Expr {
	ok := &ast.Ident{NamePos: pos, Name: helperPrefix + "ok"}
	body := []ast.Stmt{
		&ast.AssignStmt{Lhs: []ast.Expr{&ast.Ident{NamePos: pos, Name: "_"}, ok}, TokPos: pos, Tok: token.DEFINE,
			Rhs: []ast.Expr{&ast.TypeAssertExpr{X: v, Lparen: pos, Type: t, Rparen: pos}}},
		&ast.ReturnStmt{Return: pos, Results: []ast.Expr{ok}},
	}
	lit := &ast.FuncLit{
		Type: &ast.FuncType{Func: pos, Params: &ast.FieldList{Opening: pos, Closing: pos},
			Results: &ast.FieldList{List: []*ast.Field{{Type: &ast.Ident{NamePos: pos, Name: "bool"}}}}},
		Body: &ast.BlockStmt{Lbrace: pos, List: body, Rbrace: pos},
	}
	return &ast.CallExpr{Fun: lit, Lparen: pos, Rparen: pos}
}

func isNilIdent(x ast.Expr) bool {
	id, ok := x.(*ast.Ident)
	return ok && id.Name == "nil"
}
