package engine

import (
	"fmt"
	"go/ast"
	"go/token"
	"sync/atomic"
)

// yaegi v0.16.1 evaluates a deferred call's function value and arguments
// when the call runs, not at the defer statement: `x := 0; defer
// fmt.Println(x); x = 5` prints 5, and `defer f.Close()` in a loop closes
// the last file every time. A silent wrong answer, so in every function of
// a cell (the cell's body, its declared funcs, its function literals) that
// holds such a defer, the defers are rewritten onto a stack of closures
// bound at the defer statement, which one deferred call of the function
// runs in reverse order:
//
//	func f() {                         func f() {
//	    defer g(a, b)                      var ds []func()
//	    defer h()                          defer func() { for i := len(ds) - 1; i >= 0; i-- { ds[i]() } }()
//	}                                      ds = append(ds, func() func() { f, a, b := g, a, b; return func() { f(a, b) } }())
//	                                       ds = append(ds, func() func() { f := h; return func() { f() } }())
//	                                   }
//
// A function is rewritten only when it holds a defer with arguments, and
// every one of its defers calls a builtin, a function by name, a package's
// function or a method of a package-level variable: a function that also
// defers a closure or a method of its own variable is left as written (yaegi
// deadlocks calling those from the stack; see bindable), and so keeps
// yaegi's late evaluation; the README lists it. `defer func() { ... }()` with
// no arguments needs nothing (a closure reads its variables when it runs in
// Go too). Upgrading yaegi past this bug means deleting this file and its
// two calls.

var deferSeq atomic.Int64

// rewriteDefers rewrites the defers of every function under n (see above).
func rewriteDefers(n ast.Node) {
	ast.Inspect(n, func(n ast.Node) bool {
		switch f := n.(type) {
		case *ast.FuncDecl:
			if f.Body != nil {
				rewriteFuncDefers(f.Body)
			}
		case *ast.FuncLit:
			rewriteFuncDefers(f.Body)
		}
		return true
	})
}

// rewriteFuncDefers rewrites the defers directly in body (not in nested
// function literals, which rewriteDefers visits on their own).
func rewriteFuncDefers(body *ast.BlockStmt) {
	var defers []*ast.DeferStmt
	needed, blocked := false, false
	walkOwn(body, func(d *ast.DeferStmt) {
		defers = append(defers, d)
		switch bindable(d.Call.Fun) {
		case bindByName, bindValue:
			if len(d.Call.Args) > 0 || isLocalMethod(d.Call.Fun) {
				needed = true
			}
		case bindInline:
			if len(d.Call.Args) > 0 {
				needed = true
			}
		case bindNo:
			blocked = true
		}
	})
	if !needed || blocked {
		return
	}
	pos := body.Lbrace
	id := func(name string) *ast.Ident { return &ast.Ident{NamePos: pos, Name: name} }
	stack := fmt.Sprintf("%sdefers%d", helperPrefix, deferSeq.Add(1))
	for _, d := range defers {
		d.Call = &ast.CallExpr{Fun: &ast.FuncLit{
			Type: &ast.FuncType{Func: d.Pos(), Params: &ast.FieldList{}},
			Body: &ast.BlockStmt{Lbrace: d.Pos(), Rbrace: d.End(), List: []ast.Stmt{pushBound(stack, d.Call, d.Pos())}},
		}, Lparen: d.End(), Rparen: d.End()}
	}
	// Each defer statement is now `defer func() { push }()`, which would run
	// late: turn it into the push itself, run in place.
	replaceOwn(body, func(d *ast.DeferStmt) ast.Stmt {
		return d.Call.Fun.(*ast.FuncLit).Body.List[0]
	})
	funcType := &ast.FuncType{Func: pos, Params: &ast.FieldList{}}
	decl := &ast.DeclStmt{Decl: &ast.GenDecl{TokPos: pos, Tok: token.VAR, Specs: []ast.Spec{&ast.ValueSpec{
		Names: []*ast.Ident{id(stack)}, Type: &ast.ArrayType{Lbrack: pos, Elt: funcType}}}}}
	i := id(helperPrefix + "i")
	run := &ast.ForStmt{For: pos,
		Init: &ast.AssignStmt{Lhs: []ast.Expr{i}, TokPos: pos, Tok: token.DEFINE, Rhs: []ast.Expr{&ast.BinaryExpr{
			X: &ast.CallExpr{Fun: id("len"), Lparen: pos, Args: []ast.Expr{id(stack)}, Rparen: pos}, OpPos: pos, Op: token.SUB,
			Y: &ast.BasicLit{ValuePos: pos, Kind: token.INT, Value: "1"}}}},
		Cond: &ast.BinaryExpr{X: i, OpPos: pos, Op: token.GEQ, Y: &ast.BasicLit{ValuePos: pos, Kind: token.INT, Value: "0"}},
		Post: &ast.IncDecStmt{X: i, TokPos: pos, Tok: token.DEC},
		Body: &ast.BlockStmt{Lbrace: pos, Rbrace: pos, List: []ast.Stmt{&ast.ExprStmt{X: &ast.CallExpr{
			Fun: &ast.IndexExpr{X: id(stack), Lbrack: pos, Index: i, Rbrack: pos}, Lparen: pos, Rparen: pos}}}},
	}
	runAll := &ast.DeferStmt{Defer: pos, Call: &ast.CallExpr{Fun: &ast.FuncLit{
		Type: &ast.FuncType{Func: pos, Params: &ast.FieldList{}},
		Body: &ast.BlockStmt{Lbrace: pos, Rbrace: pos, List: []ast.Stmt{run}},
	}, Lparen: pos, Rparen: pos}}
	body.List = append([]ast.Stmt{decl, runAll}, body.List...)
}

// pushBound is `stack = append(stack, func() func() { f, a0 := F, A0; return
// func() { f(a0) } }())`: call's function value and arguments bound now.
func pushBound(stack string, call *ast.CallExpr, pos token.Pos) ast.Stmt {
	id := func(name string) *ast.Ident { return &ast.Ident{NamePos: pos, Name: name} }
	n := deferSeq.Add(1)
	fn := id(fmt.Sprintf("%sdf%d", helperPrefix, n))
	if lit, ok := unparen(call.Fun).(*ast.FuncLit); ok {
		return pushInline(stack, lit, call, pos)
	}
	var fun ast.Expr = fn
	lhs := []ast.Expr{fn}
	rhs := []ast.Expr{call.Fun}
	if sel, ok := unparen(call.Fun).(*ast.SelectorExpr); ok {
		if x, ok := sel.X.(*ast.Ident); ok && x.Obj != nil && x.Obj.Kind == ast.Var {
			// A method of the function's own variable: yaegi binds a
			// method value to the variable, not to its value, so the
			// variable's address is bound and the method called on it
			// (as Go does for a pointer method of an addressable value).
			recv := id(fmt.Sprintf("%sdr%d", helperPrefix, n))
			rhs[0] = &ast.UnaryExpr{OpPos: pos, Op: token.AND, X: x}
			lhs[0] = recv
			fun = &ast.SelectorExpr{X: &ast.ParenExpr{Lparen: pos, X: &ast.StarExpr{Star: pos, X: recv}, Rparen: pos}, Sel: sel.Sel}
		}
	}
	if bindable(call.Fun) == bindByName {
		// A builtin has no value, and a function declared by name
		// cannot change: both are called by name.
		lhs, rhs = nil, nil
		fun = unparen(call.Fun)
	}
	var args []ast.Expr
	for k, a := range call.Args {
		v := id(fmt.Sprintf("%sda%d_%d", helperPrefix, n, k))
		lhs, rhs, args = append(lhs, v), append(rhs, a), append(args, v)
	}
	inner := &ast.FuncLit{Type: &ast.FuncType{Func: pos, Params: &ast.FieldList{}},
		Body: &ast.BlockStmt{Lbrace: pos, Rbrace: pos, List: []ast.Stmt{&ast.ExprStmt{X: &ast.CallExpr{
			Fun: fun, Lparen: pos, Args: args, Ellipsis: ellipsisAt(call, pos), Rparen: pos}}}}}
	funcType := &ast.FuncType{Func: pos, Params: &ast.FieldList{}}
	maker := &ast.FuncLit{
		Type: &ast.FuncType{Func: pos, Params: &ast.FieldList{}, Results: &ast.FieldList{List: []*ast.Field{{Type: funcType}}}},
		Body: &ast.BlockStmt{Lbrace: pos, Rbrace: pos, List: []ast.Stmt{
			&ast.AssignStmt{Lhs: lhs, TokPos: pos, Tok: token.DEFINE, Rhs: rhs},
			&ast.ReturnStmt{Return: pos, Results: []ast.Expr{inner}},
		}},
	}
	return &ast.AssignStmt{Lhs: []ast.Expr{id(stack)}, TokPos: pos, Tok: token.ASSIGN, Rhs: []ast.Expr{&ast.CallExpr{
		Fun: id("append"), Lparen: pos, Args: []ast.Expr{id(stack), &ast.CallExpr{Fun: maker, Lparen: pos, Rparen: pos}}, Rparen: pos}}}
}

// How a deferred call's function can be bound at the defer statement.
const (
	bindNo     = iota // a closure held by a variable of the function: yaegi deadlocks calling it from the stack
	bindByName        // a builtin or a function declared by name
	bindValue         // a package's function or a method value
	bindInline        // a function literal, whose body moves into the bound closure
)

// bindable classifies fun, the function of a deferred call. Calling, from a
// deferred call, an interpreted closure made in the same function's frame
// deadlocks yaegi v0.16.1 (it locks that frame twice), so such defers keep
// yaegi's own handling and the function is left as written.
func bindable(fun ast.Expr) int {
	switch f := fun.(type) {
	case *ast.Ident:
		if f.Obj == nil || f.Obj.Kind == ast.Fun {
			return bindByName
		}
	case *ast.SelectorExpr:
		return bindValue
	case *ast.FuncLit:
		if f.Type.Results == nil && !callsRecover(f.Body) {
			return bindInline
		}
	case *ast.ParenExpr:
		return bindable(f.X)
	}
	return bindNo
}

// isLocalMethod reports whether fun is a method of a variable of the
// function itself (x.Close with x declared in it).
func isLocalMethod(fun ast.Expr) bool {
	sel, ok := unparen(fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	x, ok := sel.X.(*ast.Ident)
	return ok && x.Obj != nil && x.Obj.Kind == ast.Var
}

func unparen(x ast.Expr) ast.Expr {
	for {
		p, ok := x.(*ast.ParenExpr)
		if !ok {
			return x
		}
		x = p.X
	}
}

// callsRecover reports whether body calls recover: a deferred literal that
// recovers must stay deferred itself, or recover would return nil.
func callsRecover(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			if id, ok := c.Fun.(*ast.Ident); ok && id.Name == "recover" {
				found = true
			}
		}
		return !found
	})
	return found
}

// pushInline is pushBound for a function literal: its parameters become
// variables of the binding closure, set to the arguments now, and its body
// runs in the bound closure (calling the literal itself from the stack
// would deadlock yaegi, see bindable).
func pushInline(stack string, lit *ast.FuncLit, call *ast.CallExpr, pos token.Pos) ast.Stmt {
	id := func(name string) *ast.Ident { return &ast.Ident{NamePos: pos, Name: name} }
	var bind []ast.Stmt
	k := 0
	for _, field := range lit.Type.Params.List {
		names := field.Names
		if len(names) == 0 {
			names = []*ast.Ident{id("_")}
		}
		for _, n := range names {
			if k < len(call.Args) {
				bind = append(bind, &ast.DeclStmt{Decl: &ast.GenDecl{TokPos: pos, Tok: token.VAR, Specs: []ast.Spec{
					&ast.ValueSpec{Names: []*ast.Ident{n}, Type: field.Type, Values: []ast.Expr{call.Args[k]}}}}})
			}
			k++
		}
	}
	funcType := &ast.FuncType{Func: pos, Params: &ast.FieldList{}}
	inner := &ast.FuncLit{Type: &ast.FuncType{Func: pos, Params: &ast.FieldList{}}, Body: lit.Body}
	maker := &ast.FuncLit{
		Type: &ast.FuncType{Func: pos, Params: &ast.FieldList{}, Results: &ast.FieldList{List: []*ast.Field{{Type: funcType}}}},
		Body: &ast.BlockStmt{Lbrace: pos, Rbrace: pos, List: append(bind, &ast.ReturnStmt{Return: pos, Results: []ast.Expr{inner}})},
	}
	return &ast.AssignStmt{Lhs: []ast.Expr{id(stack)}, TokPos: pos, Tok: token.ASSIGN, Rhs: []ast.Expr{&ast.CallExpr{
		Fun: id("append"), Lparen: pos, Args: []ast.Expr{id(stack), &ast.CallExpr{Fun: maker, Lparen: pos, Rparen: pos}}, Rparen: pos}}}
}

func ellipsisAt(call *ast.CallExpr, pos token.Pos) token.Pos {
	if call.Ellipsis.IsValid() {
		return pos
	}
	return token.NoPos
}

// walkOwn calls f for each defer statement of body itself, not of nested
// function literals.
func walkOwn(body *ast.BlockStmt, f func(*ast.DeferStmt)) {
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.DeferStmt:
			f(n)
		}
		return true
	})
}

// replaceOwn replaces each defer statement of body itself (in any statement
// list) with what f returns.
func replaceOwn(body *ast.BlockStmt, f func(*ast.DeferStmt) ast.Stmt) {
	fix := func(list []ast.Stmt) {
		for i, st := range list {
			switch s := st.(type) {
			case *ast.DeferStmt:
				list[i] = f(s)
			case *ast.LabeledStmt:
				if d, ok := s.Stmt.(*ast.DeferStmt); ok {
					s.Stmt = f(d)
				}
			}
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.BlockStmt:
			fix(n.List)
		case *ast.CaseClause:
			fix(n.Body)
		case *ast.CommClause:
			fix(n.Body)
		}
		return true
	})
}

var passDefers = pass{
	name:     "defers",
	bug:      "a deferred call's function and arguments are evaluated when it runs, not at the defer statement",
	file:     "yaegi_defer.go",
	changes:  "the defers of a declaration chunk's functions, onto a stack of bound closures",
	userOnly: true,
	chunk: func(c *cellRun, p *parsed) {
		if p.body == nil && p.file != nil {
			rewriteDefers(p.file)
		}
	},
}
