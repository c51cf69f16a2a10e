package engine

import (
	"go/ast"
	"go/token"
	"strconv"

	"golang.org/x/tools/go/ast/astutil"
)

// errors.AsType[E](err) (Go 1.26) is generic and compiled, and yaegi
// cannot call a compiled generic function, so a cell that used it was
// refused (issue 24). It is errors.As with a fresh target, so each call
// is rewritten, before anything else looks at the cell, to
//
//	func() (E, bool) { var t E; ok := errors.As(err, &t); return t, ok }()
//
// which evaluates err once, as the call does, and goes through errors.As
// and the engine's handling of the cells' error types (crossing.go).
// Upgrading to an interpreter that calls compiled generics means deleting
// this file and its call.

// rewriteAsType rewrites the cell's calls of errors.AsType (see above).
func (e *Engine) rewriteAsType(ps []*parsed) {
	names := map[string]bool{}
	e.state.Lock()
	for alias, path := range e.imports {
		if path == "errors" {
			names[alias] = true
		}
	}
	e.state.Unlock()
	for _, p := range ps {
		if p.kind != kindImport || p.file == nil {
			continue
		}
		for _, spec := range p.file.Imports {
			if path, _ := strconv.Unquote(spec.Path.Value); path == "errors" {
				alias := "errors"
				if spec.Name != nil {
					alias = spec.Name.Name
				}
				names[alias] = true
			}
		}
	}
	if len(names) == 0 {
		return
	}
	for _, p := range ps {
		if n := p.node(); n != nil && p.kind != kindImport {
			rewriteAsTypeIn(n, names)
		}
	}
}

// rewriteAsTypeIn replaces, under n, every call errors.AsType[E](x) whose
// package name is in names by the function literal's call.
func rewriteAsTypeIn(n ast.Node, names map[string]bool) {
	astutil.Apply(n, nil, func(cur *astutil.Cursor) bool {
		if x, ok := cur.Node().(ast.Expr); ok {
			if lit := asTypeLit(x, names); lit != nil {
				cur.Replace(lit)
			}
		}
		return true
	})
}

// asTypeLit returns the replacement of x when x is errors.AsType[E](v),
// or nil.
func asTypeLit(x ast.Expr, names map[string]bool) ast.Expr {
	call, ok := x.(*ast.CallExpr)
	if !ok || len(call.Args) != 1 || call.Ellipsis.IsValid() {
		return nil
	}
	ix, ok := call.Fun.(*ast.IndexExpr)
	if !ok {
		return nil
	}
	sel, ok := ix.X.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "AsType" {
		return nil
	}
	pkg, ok := sel.X.(*ast.Ident)
	if !ok || !names[pkg.Name] {
		return nil
	}
	pos := call.Pos()
	id := func(name string) *ast.Ident { return &ast.Ident{NamePos: pos, Name: name} }
	target, okName := id(helperPrefix+"astarget"), id(helperPrefix+"asok")
	body := []ast.Stmt{
		&ast.DeclStmt{Decl: &ast.GenDecl{TokPos: pos, Tok: token.VAR, Specs: []ast.Spec{
			&ast.ValueSpec{Names: []*ast.Ident{target}, Type: ix.Index}}}},
		&ast.AssignStmt{Lhs: []ast.Expr{okName}, TokPos: pos, Tok: token.DEFINE, Rhs: []ast.Expr{
			&ast.CallExpr{Fun: &ast.SelectorExpr{X: id(pkg.Name), Sel: id("As")}, Lparen: call.Lparen,
				Args: []ast.Expr{call.Args[0], &ast.UnaryExpr{OpPos: pos, Op: token.AND, X: id(target.Name)}}, Rparen: call.Rparen}}},
		&ast.ReturnStmt{Return: pos, Results: []ast.Expr{id(target.Name), id(okName.Name)}},
	}
	lit := &ast.FuncLit{
		Type: &ast.FuncType{Func: pos, Params: &ast.FieldList{Opening: pos, Closing: pos},
			Results: &ast.FieldList{Opening: pos, List: []*ast.Field{{Type: ix.Index}, {Type: id("bool")}}, Closing: pos}},
		Body: &ast.BlockStmt{Lbrace: pos, List: body, Rbrace: call.End()},
	}
	return &ast.CallExpr{Fun: lit, Lparen: call.Lparen, Rparen: call.Rparen}
}

var passAsType = pass{
	name:    "errors-astype",
	bug:     "yaegi cannot call a compiled generic function, so errors.AsType[E](err) (Go 1.26) was refused",
	file:    "yaegi_astype.go",
	early:   true,
	changes: "calls of errors.AsType, into a func literal calling errors.As",
	run: func(c *cellRun) *CellError {
		c.e.rewriteAsType(c.ps)
		return nil
	},
}
