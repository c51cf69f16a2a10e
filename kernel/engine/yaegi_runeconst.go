package engine

import (
	"go/ast"
	"go/token"
)

// yaegi v0.16.1 gives a variable declared at a cell's top level from an
// untyped rune constant the type int, where Go gives rune (int32): after
// `a := 'r'`, %T says int (inside a function yaegi gets it right). A cell's
// top-level declaration from a constant expression of rune kind (a rune
// literal, with no float or complex one) is given its type explicitly:
//
//	a := 'r' + 1   →  a := rune('r' + 1)
//
// Upgrading yaegi past this bug means deleting this file and its call.

// typeRuneConsts rewrites the top-level statements of a cell (see above).
func typeRuneConsts(list []ast.Stmt) {
	for _, st := range list {
		switch s := st.(type) {
		case *ast.AssignStmt:
			if s.Tok != token.DEFINE {
				continue
			}
			for i, r := range s.Rhs {
				if isRuneConst(r) {
					s.Rhs[i] = runeOf(r)
				}
			}
		case *ast.DeclStmt:
			g, ok := s.Decl.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, sp := range g.Specs {
				vs := sp.(*ast.ValueSpec)
				if vs.Type != nil {
					continue
				}
				for i, v := range vs.Values {
					if isRuneConst(v) {
						vs.Values[i] = runeOf(v)
					}
				}
			}
		}
	}
}

// isRuneConst reports whether x is a constant expression whose default
// type is rune: it has a rune literal, and no float, complex or string one.
func isRuneConst(x ast.Expr) bool {
	if !isConstExpr(x) {
		return false
	}
	hasRune, other := false, false
	ast.Inspect(x, func(n ast.Node) bool {
		if b, ok := n.(*ast.BasicLit); ok {
			switch b.Kind {
			case token.CHAR:
				hasRune = true
			case token.FLOAT, token.IMAG, token.STRING:
				other = true
			}
		}
		if id, ok := n.(*ast.Ident); ok && (id.Name == "true" || id.Name == "false") {
			other = true
		}
		return true
	})
	return hasRune && !other
}

func runeOf(x ast.Expr) ast.Expr {
	return &ast.CallExpr{Fun: &ast.Ident{NamePos: x.Pos(), Name: "rune"}, Lparen: x.Pos(), Args: []ast.Expr{x}, Rparen: x.End()}
}

var passRuneConsts = pass{
	name:     "rune-consts",
	bug:      "a top-level variable declared from an untyped rune constant gets type int, not rune",
	file:     "yaegi_runeconst.go",
	changes:  "top-level declarations from rune constants",
	userOnly: true,
	chunk: func(c *cellRun, p *parsed) {
		if p.body != nil {
			typeRuneConsts(p.body.List)
		}
	},
}
