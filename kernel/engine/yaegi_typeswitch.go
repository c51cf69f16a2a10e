package engine

import (
	"fmt"
	"go/ast"
	"go/printer"
	"go/token"
	"reflect"
	"strings"
	"sync/atomic"
)

// yaegi v0.16.1 never matches an interface case of a type switch on a value
// of a compiled type: `case error:` takes the default for io.EOF, and
// `case fmt.Stringer:` for time.Second, a silent wrong answer. So a cell's
// type switches are rewritten into expression switches, case by case in Go's
// order, each case asking __gocl_match: by reflection when the value's type
// is a compiled one (exact, methods included), else by a comma-ok assertion
// in interpreted code, which yaegi answers for the cells' own types. The
// bound name takes the case's type where the case names one type, and the
// switched value otherwise:
//
//	switch t := x.(type) {          {
//	case error:                         v := x
//	    A                               m0, k0 := __gocl_match(v, (*error)(nil))
//	case int, string:                   if !k0 && v != nil { _, m0 = v.(error) }
//	    B                               ... (m1, m2 likewise)
//	default:                            switch {
//	    C                               case m0:
//	}                                       t := v.(error); A
//	                                    case m1 || m2:
//	                                        t := v; B
//	                                    default:
//	                                        t := v; C
//	                                    }
//	                                }
//
// A break in a case still leaves the switch, and a label on the switch moves
// with it. yaegi still fails, with a reflect error, on method calls through
// an interface that has held values of the cells' own types and of compiled
// ones (see the README's limits). Upgrading yaegi past this bug means
// deleting this file and its one call.

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
	if !rewritable(ts) {
		if label != nil {
			return label
		}
		return ts // yaegi reports the error Go gives
	}
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
				// Asked before the switch, in statements of the block: a
				// comma-ok assertion in a closure fails in yaegi.
				m := id(fmt.Sprintf("%sm%d", val, len(outer)))
				outer = append(outer, matchStmts(id(val), m, t, pos)...)
				test = m
			}
			if cond == nil {
				cond = test
			} else {
				cond = &ast.BinaryExpr{X: cond, OpPos: pos, Op: token.LOR, Y: test}
			}
		}
		var body []ast.Stmt
		switch {
		case bound == "":
			body = cc.Body
		case len(cc.List) == 1 && !isNilIdent(cc.List[0]):
			// (No `_ = t` for an unused t: yaegi accepts unused variables,
			// and an assignment to _ corrupts an interface value.)
			body = append([]ast.Stmt{&ast.AssignStmt{Lhs: []ast.Expr{id(bound)}, TokPos: pos, Tok: token.DEFINE,
				Rhs: []ast.Expr{&ast.TypeAssertExpr{X: id(val), Lparen: pos, Type: cc.List[0], Rparen: pos}}}}, cc.Body...)
		default:
			body = append([]ast.Stmt{&ast.AssignStmt{Lhs: []ast.Expr{id(bound)}, TokPos: pos, Tok: token.DEFINE, Rhs: []ast.Expr{id(val)}}}, cc.Body...)
		}
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

// matchStmts sets m to whether v matches type t:
//
//	m, known := __gocl_match(v, (*T)(nil))
//	if !known && v != nil { tv, ok := v.(T); m = ok }
//
// (the value is named, not _: an assignment to _ can corrupt it in yaegi).
func matchStmts(v *ast.Ident, m *ast.Ident, t ast.Expr, pos token.Pos) []ast.Stmt {
	id := func(name string) *ast.Ident { return &ast.Ident{NamePos: pos, Name: name} }
	known := id(m.Name + "k")
	ok := id(helperPrefix + "ok")
	return []ast.Stmt{
		&ast.AssignStmt{Lhs: []ast.Expr{m, known}, TokPos: pos, Tok: token.DEFINE, Rhs: []ast.Expr{&ast.CallExpr{
			Fun: id(helperPrefix + "match"), Lparen: pos, Args: []ast.Expr{v, typeNil(t, pos)}, Rparen: pos}}},
		&ast.IfStmt{If: pos,
			Cond: &ast.BinaryExpr{X: &ast.UnaryExpr{OpPos: pos, Op: token.NOT, X: known}, OpPos: pos, Op: token.LAND,
				Y: &ast.BinaryExpr{X: v, OpPos: pos, Op: token.NEQ, Y: id("nil")}},
			Body: &ast.BlockStmt{Lbrace: pos, Rbrace: pos, List: []ast.Stmt{
				&ast.AssignStmt{Lhs: []ast.Expr{id(helperPrefix + "tv"), ok}, TokPos: pos, Tok: token.DEFINE,
					Rhs: []ast.Expr{&ast.TypeAssertExpr{X: v, Lparen: pos, Type: t, Rparen: pos}}},
				&ast.AssignStmt{Lhs: []ast.Expr{m}, TokPos: pos, Tok: token.ASSIGN, Rhs: []ast.Expr{ok}},
			}}},
	}
}

func isNilIdent(x ast.Expr) bool {
	id, ok := x.(*ast.Ident)
	return ok && id.Name == "nil"
}

// typeNil is (*T)(nil), which carries T to the engine's matcher.
func typeNil(t ast.Expr, pos token.Pos) ast.Expr {
	return &ast.CallExpr{Fun: &ast.ParenExpr{Lparen: pos, X: &ast.StarExpr{Star: pos, X: t}, Rparen: pos},
		Lparen: pos, Args: []ast.Expr{&ast.Ident{NamePos: pos, Name: "nil"}}, Rparen: pos}
}

// interpPath is the package of yaegi's own wrapper types.
const interpPath = "github.com/traefik/yaegi/interp"

// isCompiledValue reports whether v's dynamic type is certainly a compiled
// package's named type, not one that stands for a cell's type.
func isCompiledValue(v any) bool {
	t := reflect.TypeOf(v)
	if t == nil {
		return false
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	// Only a type named in a compiled package says for sure: yaegi hands
	// a cell's `type S int` to compiled code as a plain int, and builds
	// unnamed structs for the cells' struct types.
	return t.PkgPath() != "" && t.PkgPath() != interpPath
}

// matchesType reports whether v's type is typ's element type, or implements
// it when that is an interface; known is false when v's type is a cell's,
// which reflection cannot see the methods of.
func matchesType(v any, typ any) (matched, known bool) {
	pt := reflect.TypeOf(typ)
	if pt == nil || pt.Kind() != reflect.Pointer || !isCompiledValue(v) {
		return false, false
	}
	want, t := pt.Elem(), reflect.TypeOf(v)
	if want.PkgPath() == interpPath || (want.Name() == "" && want.Kind() == reflect.Struct && want.NumField() > 0) {
		return false, false // a cell's type named in the case
	}
	if want.Kind() == reflect.Interface {
		return t.Implements(want), true
	}
	return t == want, true
}

// rewritable reports whether ts is a valid type switch as far as the
// rewrite can tell: no fallthrough and no type listed twice (Go refuses
// both, and an expression switch would not).
func rewritable(ts *ast.TypeSwitchStmt) bool {
	seen := map[string]bool{}
	for _, c := range ts.Body.List {
		cc := c.(*ast.CaseClause)
		for _, t := range cc.List {
			key := types2String(t)
			if seen[key] {
				return false
			}
			seen[key] = true
		}
		for _, st := range cc.Body {
			if br, ok := st.(*ast.BranchStmt); ok && br.Tok == token.FALLTHROUGH {
				return false
			}
		}
	}
	return true
}

// types2String writes a type expression as source, for comparing cases.
func types2String(x ast.Expr) string {
	var b strings.Builder
	printer.Fprint(&b, token.NewFileSet(), x)
	return b.String()
}
