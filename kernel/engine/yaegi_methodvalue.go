package engine

import (
	"go/ast"
	"go/types"
	"strings"
)

// yaegi v0.16.1 binds a method value of a value receiver to the variable,
// not to a copy of it: after `f := d.Sound; d.name = "Max"`, f() says Max,
// where Go's f says the name d had when f was made. In a checked cell the
// method value is rewritten to bind a copy, as Go does:
//
//	d.Sound   →  func(r Dog) func() string { return r.Sound }(d)
//	p.Sound   →  func(r Dog) func() string { return r.Sound }(*p)   (p *Dog)
//
// (the copy r is never assigned, so binding r by reference is right).
// Pointer receivers need nothing: Go binds the pointer too. Promoted
// methods and generic types are left alone. Upgrading yaegi past this bug
// means deleting this file and its call.

// hasMethodValue reports whether the cell selects, other than to call it,
// a name that a cell declared as a method: only its types can say whether
// that is a method value.
func hasMethodValue(ps []*parsed, methods map[string]*ast.FuncDecl) bool {
	names := map[string]bool{}
	for k := range methods {
		if i := strings.LastIndexByte(k, '.'); i >= 0 {
			names[k[i+1:]] = true
		}
	}
	if len(names) == 0 {
		return false
	}
	found := false
	for _, p := range ps {
		n := p.node()
		if n == nil {
			continue
		}
		called := map[*ast.SelectorExpr]bool{}
		ast.Inspect(n, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				if s, ok := n.Fun.(*ast.SelectorExpr); ok {
					called[s] = true
				}
			case *ast.SelectorExpr:
				if names[n.Sel.Name] && !called[n] {
					found = true
				}
			}
			return !found
		})
	}
	return found
}

// rewriteMethodValues rewrites the method values of value receivers of the
// cells' types (see above).
func rewriteMethodValues(ps []*parsed, info *types.Info, qualify func(*types.Package) string) {
	for _, p := range ps {
		n := p.node()
		if n == nil {
			continue
		}
		replaceExprs(n, func(x ast.Expr) ast.Expr {
			sel, ok := x.(*ast.SelectorExpr)
			if !ok {
				return nil
			}
			s := info.Selections[sel]
			if s == nil || s.Kind() != types.MethodVal || len(s.Index()) != 1 {
				return nil
			}
			fn, ok := s.Obj().(*types.Func)
			if !ok {
				return nil
			}
			recv := fn.Type().(*types.Signature).Recv().Type()
			if _, isPtr := recv.(*types.Pointer); isPtr {
				return nil
			}
			if _, ok := isCell(recv); !ok {
				return nil
			}
			pos := sel.Pos()
			recvType, ok1 := goTypeExpr(recv, qualify, pos)
			valueType, ok2 := goTypeExpr(s.Type(), qualify, pos)
			if !ok1 || !ok2 {
				return nil
			}
			var arg ast.Expr = sel.X
			if s.Indirect() {
				arg = &ast.StarExpr{Star: pos, X: sel.X}
			}
			r := &ast.Ident{NamePos: pos, Name: helperPrefix + "r"}
			lit := &ast.FuncLit{
				Type: &ast.FuncType{Func: pos,
					Params:  &ast.FieldList{List: []*ast.Field{{Names: []*ast.Ident{r}, Type: recvType}}},
					Results: &ast.FieldList{List: []*ast.Field{{Type: valueType}}}},
				Body: &ast.BlockStmt{Lbrace: pos, Rbrace: sel.End(), List: []ast.Stmt{&ast.ReturnStmt{Return: pos,
					Results: []ast.Expr{&ast.SelectorExpr{X: &ast.Ident{NamePos: pos, Name: r.Name}, Sel: sel.Sel}}}}},
			}
			return &ast.CallExpr{Fun: lit, Lparen: pos, Args: []ast.Expr{arg}, Rparen: sel.End()}
		})
	}
}

// replaceExprs replaces, under n, each expression for which f returns a
// new one (f is not asked about what it returned, nor about a call's
// function: `d.Sound()` is a call, not a method value).
func replaceExprs(n ast.Node, f func(ast.Expr) ast.Expr) {
	var visit func(n ast.Node)
	fix := func(p *ast.Expr) {
		if *p == nil {
			return
		}
		if r := f(*p); r != nil {
			*p = r
			return
		}
		visit(*p)
	}
	visit = func(n ast.Node) {
		ast.Inspect(n, func(c ast.Node) bool {
			switch c := c.(type) {
			case *ast.CallExpr:
				if _, isSel := c.Fun.(*ast.SelectorExpr); isSel {
					visit(c.Fun.(*ast.SelectorExpr).X)
				} else {
					fix(&c.Fun)
				}
				for i := range c.Args {
					fix(&c.Args[i])
				}
				return false
			case *ast.AssignStmt:
				for i := range c.Rhs {
					fix(&c.Rhs[i])
				}
				for _, l := range c.Lhs {
					visit(l)
				}
				return false
			case *ast.ValueSpec:
				for i := range c.Values {
					fix(&c.Values[i])
				}
				return false
			case *ast.ReturnStmt:
				for i := range c.Results {
					fix(&c.Results[i])
				}
				return false
			case *ast.CompositeLit:
				for i := range c.Elts {
					if kv, ok := c.Elts[i].(*ast.KeyValueExpr); ok {
						fix(&kv.Value)
					} else {
						fix(&c.Elts[i])
					}
				}
				return false
			case *ast.KeyValueExpr:
				fix(&c.Value)
				return false
			}
			return true
		})
	}
	visit(n)
}

var passMethodValues = pass{
	name:     "method-values",
	bug:      "a method value of a value receiver binds the variable, not a copy (f := d.Sound; d.name = \"Max\"; f() says Max)",
	file:     "yaegi_methodvalue.go",
	reads:    needTypes | needSession,
	changes:  "method values of value receivers",
	userOnly: true,
	needed:   func(c *cellRun) bool { return hasMethodValue(c.ps, c.methods) },
	run: func(c *cellRun) *CellError {
		rewriteMethodValues(c.ps, c.checked.Info, c.e.qualifier(c.cross))
		return nil
	},
}
