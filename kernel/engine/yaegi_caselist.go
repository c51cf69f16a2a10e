package engine

import (
	"go/ast"
	"go/token"
)

// yaegi v0.16.1 tests only the first expression of a case list in a switch
// without a tag: `switch { case y == 1, y == 2: }` takes the default for
// y == 2. In Go the case holds when any of them does, tried in order, which
// is what || does; so such a list becomes one expression:
//
//	case y == 1, y == 2:  →  case (y == 1) || (y == 2):
//
// (A switch with a tag compares its list right.) Upgrading yaegi past this
// bug means deleting this file and its call in run.go.

// joinTaglessCaseLists rewrites the case lists of tagless switches under n.
func joinTaglessCaseLists(n ast.Node) {
	ast.Inspect(n, func(n ast.Node) bool {
		s, ok := n.(*ast.SwitchStmt)
		if !ok || s.Tag != nil {
			return true
		}
		for _, c := range s.Body.List {
			cc := c.(*ast.CaseClause)
			if len(cc.List) < 2 {
				continue
			}
			var x ast.Expr
			for _, e := range cc.List {
				e = &ast.ParenExpr{Lparen: e.Pos(), X: e, Rparen: e.End()}
				if x == nil {
					x = e
				} else {
					x = &ast.BinaryExpr{X: x, OpPos: e.Pos(), Op: token.LOR, Y: e}
				}
			}
			cc.List = []ast.Expr{x}
		}
		return true
	})
}

var passCaseLists = pass{
	name:     "case-lists",
	bug:      "a tagless switch tests only the first expression of a case list",
	file:     "yaegi_caselist.go",
	changes:  "case lists of tagless switches, into ||",
	userOnly: true,
	chunk: func(c *cellRun, p *parsed) {
		if n := p.node(); n != nil {
			joinTaglessCaseLists(n)
		}
	},
}
