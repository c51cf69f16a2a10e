package engine

import (
	"go/ast"
	"go/token"
	"reflect"
	"strings"
)

// yaegi v0.16.1 predates Go 1.22's range over an integer (`for i := range
// 10` crashes its compiler with "nil type") and mishandles method
// expressions of a cell's types (`Dog.Sound` panics "Call with too many
// input arguments" when called). Both are rewritten before yaegi sees them:
//
//	for i := range n     →  for i := 0; i < n; i++      (n evaluated once)
//	Dog.Sound            →  func(d Dog) string { return d.Sound() }
//
// A range is rewritten only where its operand is known to be an integer:
// a constant, len or cap, a conversion to an integer type, arithmetic on
// those, a parameter or variable declared with an integer type or from
// such an expression, or a global of an integer type. Upgrading yaegi past
// these means deleting this file and its call.

// intTypes are the predeclared integer types.
var intTypes = map[string]bool{"int": true, "int8": true, "int16": true, "int32": true, "int64": true,
	"uint": true, "uint8": true, "uint16": true, "uint32": true, "uint64": true, "uintptr": true, "byte": true, "rune": true}

// rewriteModern applies both rewrites under n. methods maps "T.M" of the
// cells' types to the method's declaration.
func (e *Engine) rewriteModern(n ast.Node, methods map[string]*ast.FuncDecl) {
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BlockStmt:
			e.rangeInts(n.List)
		case *ast.CaseClause:
			e.rangeInts(n.Body)
		case *ast.CommClause:
			e.rangeInts(n.Body)
		case *ast.LabeledStmt:
			if r, ok := n.Stmt.(*ast.RangeStmt); ok {
				if f := e.rangeInt(r); f != nil {
					n.Stmt = f
				}
			}
		}
		return true
	})
	if len(methods) > 0 {
		rewriteMethodExprs(n, methods)
	}
}

func (e *Engine) rangeInts(list []ast.Stmt) {
	for i, st := range list {
		if r, ok := st.(*ast.RangeStmt); ok {
			if f := e.rangeInt(r); f != nil {
				list[i] = f
			}
		}
	}
}

// rangeInt returns the three-clause loop for a range over an integer, or
// nil when r is not one (as far as rangeInt can tell).
func (e *Engine) rangeInt(r *ast.RangeStmt) ast.Stmt {
	if r.Value != nil || !e.isIntExpr(r.X, 0) {
		return nil
	}
	return intLoop(r)
}

// isIntExpr reports whether x is certainly of an integer type.
func (e *Engine) isIntExpr(x ast.Expr, depth int) bool {
	if depth > 8 {
		return false
	}
	switch x := x.(type) {
	case *ast.BasicLit:
		return x.Kind == token.INT
	case *ast.ParenExpr:
		return e.isIntExpr(x.X, depth+1)
	case *ast.UnaryExpr:
		return (x.Op == token.SUB || x.Op == token.ADD || x.Op == token.XOR) && e.isIntExpr(x.X, depth+1)
	case *ast.BinaryExpr:
		switch x.Op {
		case token.ADD, token.SUB, token.MUL, token.QUO, token.REM, token.AND, token.OR, token.XOR, token.AND_NOT:
			return e.isIntExpr(x.X, depth+1) && e.isIntExpr(x.Y, depth+1)
		case token.SHL, token.SHR:
			return e.isIntExpr(x.X, depth+1)
		}
	case *ast.CallExpr:
		if f, ok := x.Fun.(*ast.Ident); ok && (f.Name == "len" || f.Name == "cap" || intTypes[f.Name]) && f.Obj == nil {
			return true
		}
	case *ast.Ident:
		if x.Obj == nil {
			if v, ok := globals(e.in)[x.Name]; ok && v.IsValid() {
				return isIntKind(v.Kind())
			}
			return false
		}
		switch d := x.Obj.Decl.(type) {
		case *ast.Field:
			return isIntTypeExpr(d.Type)
		case *ast.ValueSpec:
			if d.Type != nil {
				return isIntTypeExpr(d.Type)
			}
			for i, n := range d.Names {
				if n.Name == x.Name && i < len(d.Values) {
					return e.isIntExpr(d.Values[i], depth+1)
				}
			}
		case *ast.AssignStmt:
			if len(d.Lhs) == len(d.Rhs) {
				for i, l := range d.Lhs {
					if id, ok := l.(*ast.Ident); ok && id.Name == x.Name {
						return e.isIntExpr(d.Rhs[i], depth+1)
					}
				}
			}
		}
	}
	return false
}

func isIntTypeExpr(t ast.Expr) bool {
	id, ok := t.(*ast.Ident)
	return ok && intTypes[id.Name]
}

func isIntKind(k reflect.Kind) bool {
	switch k {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return true
	}
	return false
}

// rewriteMethodExprs replaces T.M and (*T).M, for methods of the cells'
// types, with function literals that call the method.
func rewriteMethodExprs(n ast.Node, methods map[string]*ast.FuncDecl) {
	replace := func(x ast.Expr) ast.Expr {
		sel, ok := x.(*ast.SelectorExpr)
		if !ok {
			return nil
		}
		recv := sel.X
		if p, ok := recv.(*ast.ParenExpr); ok {
			recv = p.X
		}
		typeName := ""
		switch r := recv.(type) {
		case *ast.Ident:
			if r.Obj != nil && r.Obj.Kind != ast.Typ {
				return nil
			}
			typeName = r.Name
		case *ast.StarExpr:
			if id, ok := r.X.(*ast.Ident); ok {
				typeName = "*" + id.Name
			}
		}
		decl := methods[strings.TrimPrefix(typeName, "*")+"."+sel.Sel.Name]
		if typeName == "" || decl == nil {
			return nil
		}
		return methodLit(recv, sel.Sel, decl, sel.Pos())
	}
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if r := replace(n.Fun); r != nil {
				n.Fun = r
			}
			for i, a := range n.Args {
				if r := replace(a); r != nil {
					n.Args[i] = r
				}
			}
		case *ast.AssignStmt:
			for i, v := range n.Rhs {
				if r := replace(v); r != nil {
					n.Rhs[i] = r
				}
			}
		case *ast.ValueSpec:
			for i, v := range n.Values {
				if r := replace(v); r != nil {
					n.Values[i] = r
				}
			}
		case *ast.ReturnStmt:
			for i, v := range n.Results {
				if r := replace(v); r != nil {
					n.Results[i] = r
				}
			}
		}
		return true
	})
}

// methodLit is func(r Recv, p0 P0, ...) (results) { return r.M(p0, ...) }.
func methodLit(recv ast.Expr, name *ast.Ident, decl *ast.FuncDecl, pos token.Pos) ast.Expr {
	id := func(s string) *ast.Ident { return &ast.Ident{NamePos: pos, Name: s} }
	r := id(helperPrefix + "recv")
	params := []*ast.Field{{Names: []*ast.Ident{r}, Type: recv}}
	var args []ast.Expr
	ellipsis := token.NoPos
	k := 0
	for _, f := range decl.Type.Params.List {
		n := len(f.Names)
		if n == 0 {
			n = 1
		}
		for j := 0; j < n; j++ {
			a := id(helperPrefix + "a" + string(rune('0'+k)))
			k++
			params = append(params, &ast.Field{Names: []*ast.Ident{a}, Type: f.Type})
			args = append(args, a)
			if _, ok := f.Type.(*ast.Ellipsis); ok {
				ellipsis = pos
			}
		}
	}
	call := &ast.CallExpr{Fun: &ast.SelectorExpr{X: r, Sel: id(name.Name)}, Lparen: pos, Args: args, Ellipsis: ellipsis, Rparen: pos}
	var body ast.Stmt = &ast.ExprStmt{X: call}
	if decl.Type.Results != nil && len(decl.Type.Results.List) > 0 {
		body = &ast.ReturnStmt{Return: pos, Results: []ast.Expr{call}}
	}
	var results *ast.FieldList
	if decl.Type.Results != nil {
		results = &ast.FieldList{}
		for _, f := range decl.Type.Results.List {
			n := len(f.Names)
			if n == 0 {
				n = 1
			}
			for j := 0; j < n; j++ {
				results.List = append(results.List, &ast.Field{Type: f.Type})
			}
		}
	}
	return &ast.FuncLit{Type: &ast.FuncType{Func: pos, Params: &ast.FieldList{List: params}, Results: results},
		Body: &ast.BlockStmt{Lbrace: pos, Rbrace: pos, List: []ast.Stmt{body}}}
}

// methodDecls returns the methods of the cells' types, by "T.M": those of
// earlier cells and of ps.
func (e *Engine) methodDecls(ps []*parsed) map[string]*ast.FuncDecl {
	e.state.Lock()
	out := make(map[string]*ast.FuncDecl, len(e.methods))
	for k, v := range e.methods {
		out[k] = v
	}
	e.state.Unlock()
	for _, p := range ps {
		if p.file == nil {
			continue
		}
		for _, d := range p.file.Decls {
			if f, ok := d.(*ast.FuncDecl); ok {
				if k := methodKey(f); k != "" {
					out[k] = f
				}
			}
		}
	}
	return out
}

// methodKey is "T.M" for a method declared on T or *T, "" otherwise.
func methodKey(f *ast.FuncDecl) string {
	if f.Recv == nil || len(f.Recv.List) != 1 {
		return ""
	}
	t := f.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	id, ok := t.(*ast.Ident)
	if !ok {
		return ""
	}
	return id.Name + "." + f.Name.Name
}

var passModern = pass{
	name:     "modern",
	bug:      "range over an integer crashes the compiler (\"nil type\"); a method expression of a cell's type panics when called",
	file:     "yaegi_modern.go",
	reads:    needSession,
	changes:  "range over integers known from the syntax, method expressions",
	userOnly: true,
	chunk: func(c *cellRun, p *parsed) {
		if n := p.node(); n != nil {
			c.e.rewriteModern(n, c.methods)
		}
	},
}
