package engine

import (
	"go/ast"
	"go/token"
)

// yaegi v0.16.1, when it runs with a context (gocl's cells do, to be
// interruptible), loses the value of a channel receive that is the left
// operand of && or || if the receive has to wait: `<-messages && true` is
// false, and `if <-done && ok {` takes the wrong branch, once the sender
// comes after the receiver (yaegi's chan8, pasted whole, printed false).
// The comparison form of the same receive has no such bug:
//
//	<-ch && x   →  (<-ch == true) && x
//
// (for a channel of a named bool type, the operand becomes an untyped
// bool; && with x gives x's type, as before). Upgrading yaegi past this
// bug means deleting this file and its call.

// rewriteRecvConds rewrites the receives under n that are the left operand
// of && or || (see above), in place.
func rewriteRecvConds(n ast.Node) {
	if n == nil {
		return
	}
	ast.Inspect(n, func(n ast.Node) bool {
		b, ok := n.(*ast.BinaryExpr)
		if !ok || b.Op != token.LAND && b.Op != token.LOR {
			return true
		}
		if u, ok := ast.Unparen(b.X).(*ast.UnaryExpr); ok && u.Op == token.ARROW {
			b.X = &ast.ParenExpr{Lparen: u.Pos(), X: &ast.BinaryExpr{X: u, OpPos: u.End(), Op: token.EQL,
				Y: &ast.Ident{NamePos: u.End(), Name: "true"}}, Rparen: u.End()}
		}
		return true
	})
}

var passRecvConds = pass{
	name:     "recv-conds",
	bug:      "with a context, a waiting receive as the left operand of && or || loses its value (yaegi's chan8)",
	file:     "yaegi_recvcond.go",
	changes:  "receives as operands of && and ||",
	userOnly: true,
	chunk:    func(c *cellRun, p *parsed) { rewriteRecvConds(p.node()) },
}
