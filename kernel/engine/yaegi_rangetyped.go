package engine

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
)

// yaegi v0.16.1 crashes on a range over an integer it cannot see is one
// (`for i := range s` with `var s Size`), and on every range over a
// function iterator (Go 1.23). yaegi_modern.go rewrites the integer ranges
// it can tell from the syntax; here, in a cell that go/types checked
// (kernel/celltypes), the types say which ranges are which:
//
//	for i := range s          →  for i := s - s; i < s; i++  (s evaluated once)
//	for k, v := range seq {   →  seq(func(k K, v V) bool {
//		if k > 3 { break }         if k > 3 { return false }
//		use(k, v)                  use(k, v); return true
//	}                           })
//
// A range over a function is rewritten only when its body has no return,
// goto or labelled branch, and assigns no outer variables as its key (the
// `=` form): what the closure cannot say is left to yaegi, whose error then
// says that the limit is the interpreter's (triage.go). Upgrading yaegi past
// Go 1.23 means deleting this file and its call.

// hasRange reports whether the cell has a range statement, which only its
// types can tell apart.
func hasRange(ps []*parsed) bool {
	found := false
	for _, p := range ps {
		n := p.node()
		if n == nil {
			continue
		}
		ast.Inspect(n, func(n ast.Node) bool {
			if _, ok := n.(*ast.RangeStmt); ok {
				found = true
			}
			return !found
		})
	}
	return found
}

// rewriteTypedRanges rewrites the ranges of the cell over integers and
// over functions, by their types in info. qualify writes a package as the
// cell names it ("" when the cell cannot name it).
func (e *Engine) rewriteTypedRanges(ps []*parsed, info *types.Info, qualify func(*types.Package) string) {
	rewrite := func(r *ast.RangeStmt) ast.Stmt {
		t := info.TypeOf(r.X)
		if t == nil {
			return nil
		}
		switch u := t.Underlying().(type) {
		case *types.Basic:
			if u.Info()&types.IsInteger != 0 && r.Value == nil {
				return intLoop(r)
			}
		case *types.Signature:
			return funcRange(r, u, qualify)
		}
		return nil
	}
	list := func(l []ast.Stmt) {
		for i, st := range l {
			switch s := st.(type) {
			case *ast.RangeStmt:
				if f := rewrite(s); f != nil {
					l[i] = f
				}
			case *ast.LabeledStmt:
				if r, ok := s.Stmt.(*ast.RangeStmt); ok {
					if f := rewrite(r); f != nil {
						s.Stmt = f
					}
				}
			}
		}
	}
	for _, p := range ps {
		n := p.node()
		if n == nil {
			continue
		}
		ast.Inspect(n, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BlockStmt:
				list(n.List)
			case *ast.CaseClause:
				list(n.Body)
			case *ast.CommClause:
				list(n.Body)
			}
			return true
		})
	}
}

// intLoop is the three-clause loop of a range over an integer: the key
// has the operand's type, as in Go.
func intLoop(r *ast.RangeStmt) ast.Stmt {
	pos := r.For
	id := func(name string) *ast.Ident { return &ast.Ident{NamePos: pos, Name: name} }
	limit := id(helperPrefix + "n")
	var key ast.Expr = id(helperPrefix + "i")
	if k, ok := r.Key.(*ast.Ident); ok && k.Name != "_" {
		key = k
	}
	tok := r.Tok
	if r.Key == nil || tok == token.ILLEGAL {
		tok = token.DEFINE
	}
	init := &ast.AssignStmt{Lhs: []ast.Expr{key}, TokPos: pos, Tok: tok,
		Rhs: []ast.Expr{&ast.BinaryExpr{X: limit, OpPos: pos, Op: token.SUB, Y: limit}}}
	loop := &ast.ForStmt{For: pos, Init: init,
		Cond: &ast.BinaryExpr{X: key, OpPos: pos, Op: token.LSS, Y: limit},
		Post: &ast.IncDecStmt{X: key, TokPos: pos, Tok: token.INC},
		Body: r.Body}
	return &ast.BlockStmt{Lbrace: pos, Rbrace: r.End(), List: []ast.Stmt{
		&ast.AssignStmt{Lhs: []ast.Expr{limit}, TokPos: pos, Tok: token.DEFINE, Rhs: []ast.Expr{r.X}},
		loop,
	}}
}

// funcRange is the call of the iterator with a yield closure that runs the
// range's body, or nil when the body cannot be one (see above).
func funcRange(r *ast.RangeStmt, sig *types.Signature, qualify func(*types.Package) string) ast.Stmt {
	if sig.Params().Len() != 1 || sig.Results().Len() != 0 || r.Tok == token.ASSIGN {
		return nil
	}
	yield, ok := sig.Params().At(0).Type().Underlying().(*types.Signature)
	if !ok || yield.Results().Len() != 1 || yield.Params().Len() > 2 {
		return nil
	}
	if b, ok := yield.Results().At(0).Type().Underlying().(*types.Basic); !ok || b.Kind() != types.Bool {
		return nil
	}
	pos := r.For
	vars := []ast.Expr{r.Key, r.Value}
	params := &ast.FieldList{Opening: pos, Closing: pos}
	for i := 0; i < yield.Params().Len(); i++ {
		typ, ok := goTypeExpr(yield.Params().At(i).Type(), qualify, pos)
		if !ok {
			return nil
		}
		name := &ast.Ident{NamePos: pos, Name: "_"}
		if i < len(vars) && vars[i] != nil {
			id, ok := vars[i].(*ast.Ident)
			if !ok {
				return nil
			}
			name = &ast.Ident{NamePos: id.Pos(), Name: id.Name}
		}
		params.List = append(params.List, &ast.Field{Names: []*ast.Ident{name}, Type: typ})
	}
	body, ok := yieldBody(r.Body)
	if !ok {
		return nil
	}
	retTrue := &ast.ReturnStmt{Return: r.Body.Rbrace, Results: []ast.Expr{&ast.Ident{NamePos: r.Body.Rbrace, Name: "true"}}}
	body.List = append(body.List, retTrue)
	lit := &ast.FuncLit{Type: &ast.FuncType{Func: pos, Params: params,
		Results: &ast.FieldList{List: []*ast.Field{{Type: &ast.Ident{NamePos: pos, Name: "bool"}}}}}, Body: body}
	return &ast.ExprStmt{X: &ast.CallExpr{Fun: r.X, Lparen: pos, Args: []ast.Expr{lit}, Rparen: r.End()}}
}

// yieldBody turns a range body into the body of a yield function: its own
// break and continue become return false and return true. ok is false for
// a body the closure cannot express.
func yieldBody(b *ast.BlockStmt) (*ast.BlockStmt, bool) {
	ok := true
	// depth counts the loops (for break and continue) and the switches and
	// selects (for break) between the range and a branch statement.
	var walk func(n ast.Node, loops, breakers int) bool
	walk = func(n ast.Node, loops, breakers int) bool {
		ast.Inspect(n, func(n ast.Node) bool {
			if !ok {
				return false
			}
			switch s := n.(type) {
			case *ast.FuncLit:
				return false // its returns are its own
			case *ast.ReturnStmt, *ast.LabeledStmt:
				ok = false
			case *ast.ForStmt:
				walk(s.Body, loops+1, breakers+1)
				return false
			case *ast.RangeStmt:
				walk(s.Body, loops+1, breakers+1)
				return false
			case *ast.SwitchStmt:
				walk(s.Body, loops, breakers+1)
				return false
			case *ast.TypeSwitchStmt:
				walk(s.Body, loops, breakers+1)
				return false
			case *ast.SelectStmt:
				walk(s.Body, loops, breakers+1)
				return false
			case *ast.BranchStmt:
				if s.Label != nil || s.Tok == token.GOTO || s.Tok == token.FALLTHROUGH && breakers == 0 {
					ok = false
				}
			}
			return true
		})
		return ok
	}
	if !walk(b, 0, 0) {
		return nil, false
	}
	// Replace this range's own break and continue (not nested ones).
	var fix func(list []ast.Stmt, loops, breakers int)
	fixNode := func(n ast.Node, loops, breakers int) {
		ast.Inspect(n, func(n ast.Node) bool {
			switch s := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ForStmt:
				fix(s.Body.List, loops+1, breakers+1)
				return false
			case *ast.RangeStmt:
				fix(s.Body.List, loops+1, breakers+1)
				return false
			case *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
				var body *ast.BlockStmt
				switch s := s.(type) {
				case *ast.SwitchStmt:
					body = s.Body
				case *ast.TypeSwitchStmt:
					body = s.Body
				case *ast.SelectStmt:
					body = s.Body
				}
				for _, c := range body.List {
					switch c := c.(type) {
					case *ast.CaseClause:
						fix(c.Body, loops, breakers+1)
					case *ast.CommClause:
						fix(c.Body, loops, breakers+1)
					}
				}
				return false
			case *ast.BlockStmt:
				fix(s.List, loops, breakers)
				return false
			case *ast.IfStmt:
				fix(s.Body.List, loops, breakers)
				if s.Else != nil {
					if eb, ok := s.Else.(*ast.BlockStmt); ok {
						fix(eb.List, loops, breakers)
					} else {
						fixNodeStmt(s.Else, loops, breakers, fix)
					}
				}
				return false
			}
			return true
		})
	}
	fix = func(list []ast.Stmt, loops, breakers int) {
		for i, st := range list {
			br, isBranch := st.(*ast.BranchStmt)
			switch {
			case isBranch && br.Tok == token.CONTINUE && loops == 0:
				list[i] = &ast.ReturnStmt{Return: br.Pos(), Results: []ast.Expr{&ast.Ident{NamePos: br.Pos(), Name: "true"}}}
			case isBranch && br.Tok == token.BREAK && breakers == 0:
				list[i] = &ast.ReturnStmt{Return: br.Pos(), Results: []ast.Expr{&ast.Ident{NamePos: br.Pos(), Name: "false"}}}
			default:
				fixNode(st, loops, breakers)
			}
		}
	}
	fix(b.List, 0, 0)
	return b, true
}

// fixNodeStmt applies fix to an else-if chain.
func fixNodeStmt(st ast.Stmt, loops, breakers int, fix func([]ast.Stmt, int, int)) {
	fix([]ast.Stmt{st}, loops, breakers)
}

// goTypeExpr writes t as a type expression of the cell, or ok is false when
// the cell cannot name one of its packages.
func goTypeExpr(t types.Type, qualify func(*types.Package) string, pos token.Pos) (ast.Expr, bool) {
	ok := true
	s := types.TypeString(t, func(p *types.Package) string {
		if p.Path() == "main" {
			return ""
		}
		q := qualify(p)
		if q == "" {
			ok = false
		}
		return q
	})
	if !ok {
		return nil, false
	}
	x, err := parser.ParseExpr(s)
	if err != nil {
		return nil, false
	}
	setPos(x, pos)
	return x, true
}

var passTypedRanges = pass{
	name:     "typed-ranges",
	bug:      "yaegi's compiler crashes on a range over an integer of a named type and over a function iterator (Go 1.22, 1.23)",
	file:     "yaegi_rangetyped.go",
	reads:    needTypes | needSession,
	changes:  "range statements over integers and functions",
	userOnly: true,
	needed:   func(c *cellRun) bool { return hasRange(c.ps) },
	run: func(c *cellRun) *CellError {
		c.e.rewriteTypedRanges(c.ps, c.checked.Info, c.e.qualifier(c.cross))
		return nil
	},
}
