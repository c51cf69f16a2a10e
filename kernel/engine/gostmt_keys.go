package engine

import (
	"go/ast"
	"go/parser"
	"go/token"
)

// go/parser resolves the key of a keyed composite-literal element to the
// variable of that name in scope, whether the key is a variable (a map
// literal's key) or a struct field's name: in
//
//	for _, value := range items { ps = append(ps, &Item{value: value}) }
//
// both idents named value carry the loop variable's object. perIteration
// renames the uses of a loop variable to its per-iteration copy, and a field
// name renamed with them (&Item{__gocl_go_i1: __gocl_go_i1}) made the
// guarded form fail to compile, so the whole cell lost its per-iteration
// loop variables (and, for a pasted program of the standard library's
// container/heap example, its output). fieldKeys finds the keys that are
// certainly field names, so that perIteration leaves them alone.

// fieldKeys returns the keys under n of keyed elements of composite
// literals whose type is known to be a struct: a struct type literal, a type
// declared in this cell or an earlier one, a pointer to one, or the elided
// element type of a literal of a known slice, array or map type. A key of a
// literal whose type is not known stays out (it is renamed as a variable, as
// before: a map's key must be).
func (g *guard) fieldKeys(n ast.Node) map[*ast.Ident]bool {
	keys := map[*ast.Ident]bool{}
	var walk func(n ast.Node, elided ast.Expr)
	// lit visits a composite literal of type t (its own, or the one its
	// parent elides).
	lit := func(c *ast.CompositeLit, t ast.Expr) {
		t = g.underlying(t, 0)
		var keyT, elemT ast.Expr
		switch tt := t.(type) {
		case *ast.StructType:
			for _, el := range c.Elts {
				if kv, ok := el.(*ast.KeyValueExpr); ok {
					if id, ok := kv.Key.(*ast.Ident); ok {
						keys[id] = true
					}
				}
			}
		case *ast.ArrayType:
			elemT = tt.Elt
		case *ast.MapType:
			keyT, elemT = tt.Key, tt.Value
		}
		for _, el := range c.Elts {
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				walk(kv.Key, keyT)
				walk(kv.Value, elemT)
				continue
			}
			walk(el, elemT)
		}
	}
	walk = func(n ast.Node, elided ast.Expr) {
		ast.Inspect(n, func(m ast.Node) bool {
			switch m := m.(type) {
			case *ast.CompositeLit:
				t := m.Type
				if t == nil {
					t = elided
				}
				lit(m, t)
				return false
			case *ast.UnaryExpr: // &{...} where the element type is *T
				if c, ok := m.X.(*ast.CompositeLit); ok && m.Op == token.AND && c.Type == nil {
					if st, ok := elided.(*ast.StarExpr); ok {
						lit(c, st.X)
						return false
					}
				}
			}
			elided = nil // only a literal right under the parent's element elides its type
			return true
		})
	}
	walk(n, nil)
	return keys
}

// underlying follows t to a type literal where it can: a parenthesized type,
// a pointer (the elided &T{...} of a []*T literal), a name of a type
// declared in the cell (go/parser resolved it) or in an earlier cell. It
// returns nil when t is not known here (an imported type, a generic one).
func (g *guard) underlying(t ast.Expr, depth int) ast.Expr {
	if t == nil || depth > 8 {
		return nil
	}
	switch tt := ast.Unparen(t).(type) {
	case *ast.StarExpr:
		return g.underlying(tt.X, depth+1)
	case *ast.StructType, *ast.ArrayType, *ast.MapType:
		return tt
	case *ast.Ident:
		if tt.Obj != nil {
			if ts, ok := tt.Obj.Decl.(*ast.TypeSpec); ok && ts.TypeParams == nil {
				return g.underlying(ts.Type, depth+1)
			}
			return nil
		}
		g.e.state.Lock()
		sym, ok := g.e.decls[tt.Name]
		g.e.state.Unlock()
		if !ok || sym.Kind != "type" {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), "", "package p; "+sym.Decl, 0)
		if err != nil || len(f.Decls) == 0 {
			return nil
		}
		if gd, ok := f.Decls[0].(*ast.GenDecl); ok && len(gd.Specs) == 1 {
			if ts, ok := gd.Specs[0].(*ast.TypeSpec); ok && ts.TypeParams == nil && ts.Name.Name == tt.Name {
				// Its names resolve in this parse only: a field's type
				// naming another cell's type is looked up again by name.
				return g.underlying(ts.Type, depth+1)
			}
		}
	}
	return nil
}
