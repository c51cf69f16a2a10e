package engine

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/astutil"
)

// yaegi v0.16.1 compiles an explicit conversion of a cell's value to an
// interface type, `any(S(1))` or `fmt.Stringer(s)`, into a bare value of
// the type's underlying type: %T says int, a type switch matches `case
// int:`, and the value's methods are gone (fmt no longer calls String).
// An assignment to a variable of that interface type keeps them. So in a
// checked cell such a conversion is rewritten into that assignment:
//
//	any(x)  →  func() any { var __gocl_conv any = x; return __gocl_conv }()
//
// which is the same Go: x is evaluated where it was, once. Upgrading yaegi
// past this bug means deleting this file and its call in run.go.

// hasIfaceConversion reports whether the cell calls a conversion that may
// be one to an interface type: any(x), error(x), interface{...}(x), or x
// converted to an interface type a cell declared (kinds). Only the type
// check can tell which conversions take a cell's value.
func hasIfaceConversion(ps []*parsed, kinds map[string]string) bool {
	if len(kinds) == 0 {
		return false // no cell's named type: nothing to convert
	}
	return anyNode(cellNodes(ps), func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		return ok && len(c.Args) == 1 && isIfaceTypeSyntax(c.Fun, kinds)
	})
}

func isIfaceTypeSyntax(x ast.Expr, kinds map[string]string) bool {
	switch x := x.(type) {
	case *ast.ParenExpr:
		return isIfaceTypeSyntax(x.X, kinds)
	case *ast.InterfaceType:
		return true
	case *ast.Ident:
		return x.Name == "any" || x.Name == "error" || kinds[x.Name] == cellIface
	}
	return false
}

// rewriteIfaceConversions rewrites each conversion of a value of a cell's
// named type (or a pointer to one) to an interface type (see above).
func rewriteIfaceConversions(ps []*parsed, info *types.Info) {
	for _, n := range bodies(laterThanDecls(ps)) {
		// Post-order, so a conversion inside another one's argument is
		// rewritten first, wherever it stands (an operand, a shown value).
		astutil.Apply(n, nil, func(cur *astutil.Cursor) bool {
			if c, ok := cur.Node().(*ast.CallExpr); ok && isCellToIface(info, c) {
				cur.Replace(assignedConversion(c))
			}
			return true
		})
	}
}

// isCellToIface reports whether c converts a value of a cell's named type,
// or a pointer to one, to an interface type.
func isCellToIface(info *types.Info, c *ast.CallExpr) bool {
	if len(c.Args) != 1 || c.Ellipsis != token.NoPos {
		return false
	}
	to, ok := info.Types[c.Fun]
	if !ok || !to.IsType() || !types.IsInterface(to.Type) {
		return false
	}
	from := info.TypeOf(c.Args[0])
	if from == nil || types.IsInterface(from) {
		return false
	}
	if ptr, isPtr := types.Unalias(from).(*types.Pointer); isPtr {
		from = ptr.Elem()
	}
	_, cell := isCell(from)
	return cell
}

// assignedConversion is `func() T { var v T = x; return v }()` for the
// conversion T(x).
func assignedConversion(c *ast.CallExpr) ast.Expr {
	pos := c.Pos()
	v := func() *ast.Ident { return &ast.Ident{NamePos: pos, Name: helperPrefix + "conv"} }
	lit := &ast.FuncLit{
		Type: &ast.FuncType{Func: pos, Params: &ast.FieldList{}, Results: &ast.FieldList{List: []*ast.Field{{Type: c.Fun}}}},
		Body: &ast.BlockStmt{Lbrace: pos, Rbrace: c.End(), List: []ast.Stmt{
			&ast.DeclStmt{Decl: &ast.GenDecl{TokPos: pos, Tok: token.VAR, Specs: []ast.Spec{
				&ast.ValueSpec{Names: []*ast.Ident{v()}, Type: c.Fun, Values: []ast.Expr{c.Args[0]}}}}},
			&ast.ReturnStmt{Return: pos, Results: []ast.Expr{v()}},
		}},
	}
	return &ast.CallExpr{Fun: lit, Lparen: pos, Rparen: c.End()}
}

// laterThanDecls leaves out the statement chunks that come before a chunk
// of declarations in the cell: yaegi v0.16.1 fails to compile a function
// literal there that names a type declared further down ("index out of
// range [-1]"), as in `var _ = I((*T)(nil))` above `type T`.
func laterThanDecls(ps []*parsed) []*parsed {
	last := -1
	for i, p := range ps {
		if p.kind == kindDecl {
			last = i
		}
	}
	var out []*parsed
	for i, p := range ps {
		if p.body == nil || i > last {
			out = append(out, p)
		}
	}
	return out
}

var passIfaceConversion = pass{
	name:     "iface-conversions",
	bug:      "an explicit conversion of a cell's value to an interface, any(S(1)), makes a bare value of the underlying type",
	file:     "yaegi_ifaceconv.go",
	reads:    needTypes | needSession,
	changes:  "conversions to interface types",
	userOnly: true,
	needed:   func(c *cellRun) bool { return hasIfaceConversion(c.ps, c.kinds) },
	run: func(c *cellRun) *CellError {
		rewriteIfaceConversions(c.ps, c.checked.Info)
		return nil
	},
}
