package engine

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
)

// varDecl declares `var name typ` at pos; name is copied.
func varDecl(pos token.Pos, name *ast.Ident, typ ast.Expr) *ast.DeclStmt {
	return &ast.DeclStmt{Decl: &ast.GenDecl{TokPos: pos, Tok: token.VAR,
		Specs: []ast.Spec{&ast.ValueSpec{Names: []*ast.Ident{{NamePos: name.NamePos, Name: name.Name}}, Type: typ}}}}
}

// typeExpr writes t as a type expression in the cell's terms (packages by
// their alias in sc), positioned at pos. It reports false when t cannot be
// written so, such as a type declared in a cell.
func typeExpr(t reflect.Type, sc Scope, pos token.Pos) (ast.Expr, bool) {
	aliases := map[string]string{}
	for alias, path := range sc.Imports {
		aliases[path] = alias
	}
	src, ok := typeSource(t, aliases)
	if !ok {
		return nil, false
	}
	x, err := parser.ParseExpr(src)
	if err != nil {
		return nil, false
	}
	setPos(x, pos)
	return x, true
}

// typeSource writes t in Go syntax, naming packages by their alias in cells.
func typeSource(t reflect.Type, aliases map[string]string) (string, bool) {
	if t.Name() != "" {
		if t.PkgPath() == "" {
			return t.Name(), true // int, string, error, ...
		}
		alias, ok := aliases[t.PkgPath()]
		if !ok || !token.IsExported(t.Name()) {
			return "", false
		}
		return alias + "." + t.Name(), true
	}
	var prefix string
	switch t.Kind() {
	case reflect.Pointer:
		prefix = "*"
	case reflect.Slice:
		prefix = "[]"
	case reflect.Array:
		prefix = fmt.Sprintf("[%d]", t.Len())
	case reflect.Map:
		key, ok := typeSource(t.Key(), aliases)
		if !ok {
			return "", false
		}
		prefix = "map[" + key + "]"
	default:
		return "", false
	}
	elem, ok := typeSource(t.Elem(), aliases)
	return prefix + elem, ok
}

// setPos gives every identifier of a parsed type expression the position
// pos, so that errors point at the statement it came from.
func setPos(x ast.Expr, pos token.Pos) {
	ast.Inspect(x, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			n.NamePos = pos
		case *ast.StarExpr:
			n.Star = pos
		case *ast.ArrayType:
			n.Lbrack = pos
		case *ast.MapType:
			n.Map = pos
		}
		return true
	})
}
