package engine

import (
	"fmt"
	"go/ast"
	"go/token"
	"sync/atomic"
)

// yaegi v0.16.1 compiles a break without a label in a select case as a jump
// past the enclosing for loop (and, where no loop encloses the select, out
// of the function): a silent wrong answer, since in Go such a break leaves
// only the select. A labelled break out of a select works, so every select
// whose cases hold such breaks is labelled and the breaks name the label:
//
//	for {                           for {
//	    select {                        {
//	    case v := <-ch:                 __gocl_sel1:
//	        if v == 0 {                     select {
//	            break                       case v := <-ch:
//	        }                                   if v == 0 {
//	        use(v)                                  break __gocl_sel1
//	    }                                       }
//	}                                           use(v)
//	                                        }
//	                                    }
//	                                }
//
// The block is there because yaegi defines a label only where the labelled
// statement stands directly in a block; for the same reason, the statements
// of a switch or select case that holds a label are put in a block (see
// blockLabels). A select that the cell labelled gets a label of gocl's too,
// and the cell's label moves to the block. A break belongs to the select
// when no for, range, switch, type switch or select statement, nor a
// function literal, stands between them.
//
// A goto from a select case back to a label before the select (a retry:
// `retry: select { ... case <-time.After(d): goto retry }`), and a continue
// in a select case of a loop whose body breaks after the select, send
// yaegi's compiler into endless recursion, which crashes the engine. Such a
// goto or continue breaks out of the select instead, and runs just after it
// (see moveJumps); a select labelled by the cell gives its label to the
// block around it, so that every goto to the label still lands there.
//
// Upgrading yaegi past these bugs means deleting this file and its call.

var selectSeq atomic.Int64

// rewriteSelects labels the selects under n and the breaks that leave them,
// moves the gotos and continues that leave them, and puts the statements of a
// case that holds a label into a block (see above).
func rewriteSelects(n ast.Node) {
	labelList := func(list []ast.Stmt) {
		for i, st := range list {
			switch s := st.(type) {
			case *ast.SelectStmt:
				if b := wrapSelect(s, nil); b != nil {
					list[i] = b
				}
			case *ast.LabeledStmt:
				if sel, ok := s.Stmt.(*ast.SelectStmt); ok && s.Label.Obj != nil {
					if b := wrapSelect(sel, s.Label); b != nil {
						s.Stmt = b
					}
				}
			}
		}
	}
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BlockStmt:
			labelList(n.List)
		case *ast.CaseClause:
			n.Body = blockLabels(n.Body)
			labelList(n.Body)
		case *ast.CommClause:
			n.Body = blockLabels(n.Body)
			labelList(n.Body)
		}
		return true
	})
}

// wrapSelect returns the block that replaces s, or nil when s needs no
// rewrite. user is the label the cell gave s, or nil; the block takes it
// (the caller puts the block in s's place under the label), so that a goto
// to it from anywhere still lands there, and the breaks by it name the
// select's new label.
func wrapSelect(s *ast.SelectStmt, user *ast.Ident) *ast.BlockStmt {
	breaks := ownBreaks(s)
	var own *ast.Object
	if user != nil {
		own = user.Obj
		breaks = append(breaks, labelBreaks(s, own)...)
	}
	jumps := leavingJumps(s, own)
	if len(breaks) == 0 && len(jumps) == 0 {
		return nil
	}
	n := selectSeq.Add(1)
	label := fmt.Sprintf("%ssel%d", helperPrefix, n)
	for _, b := range breaks {
		b.Label = &ast.Ident{NamePos: b.TokPos, Name: label}
	}
	block := &ast.BlockStmt{Lbrace: s.Select, Rbrace: s.End(), List: []ast.Stmt{
		&ast.LabeledStmt{Label: &ast.Ident{NamePos: s.Select, Name: label}, Colon: s.Select, Stmt: s}}}
	if len(jumps) > 0 {
		moveJumps(block, s, label, fmt.Sprintf("%sgoto%d", helperPrefix, n), jumps)
	}
	return block
}

// labelBreaks returns the breaks in s's cases that name the label obj.
func labelBreaks(s *ast.SelectStmt, obj *ast.Object) []*ast.BranchStmt {
	var breaks []*ast.BranchStmt
	ast.Inspect(s.Body, func(n ast.Node) bool {
		if b, ok := n.(*ast.BranchStmt); ok && b.Tok == token.BREAK && b.Label != nil && b.Label.Obj == obj {
			breaks = append(breaks, b)
		}
		_, lit := n.(*ast.FuncLit)
		return !lit
	})
	return breaks
}

// blockLabels puts the statements of a case that holds a labelled statement
// into a block (all but a final fallthrough, which must end the case):
// yaegi defines a label only for a statement that stands directly in a
// block, so `case 1: L: for { ... break L }` failed with "undefined: L".
// A case's statements are a block of their own in Go, so nothing else
// changes.
func blockLabels(body []ast.Stmt) []ast.Stmt {
	labelled := false
	for _, st := range body {
		_, ok := st.(*ast.LabeledStmt)
		labelled = labelled || ok
	}
	if !labelled {
		return body
	}
	var tail []ast.Stmt
	if b, ok := body[len(body)-1].(*ast.BranchStmt); ok && b.Tok == token.FALLTHROUGH {
		body, tail = body[:len(body)-1], body[len(body)-1:]
	}
	block := &ast.BlockStmt{Lbrace: body[0].Pos(), Rbrace: body[len(body)-1].End(), List: body}
	return append([]ast.Stmt{block}, tail...)
}

// leavingJumps returns the jumps in s's cases (nested selects included)
// that leave s, other than its plain breaks and the breaks by its own label
// own: gotos to a label that stands before s, continues, and breaks by the
// label of an enclosing statement.
func leavingJumps(s *ast.SelectStmt, own *ast.Object) []*ast.BranchStmt {
	var jumps []*ast.BranchStmt
	before := func(label *ast.Ident) bool {
		if label.Obj == nil {
			return false
		}
		decl, ok := label.Obj.Decl.(*ast.LabeledStmt)
		return ok && decl.Pos() < s.Pos()
	}
	var walk func(n ast.Node, inLoop bool)
	walk = func(n ast.Node, inLoop bool) {
		ast.Inspect(n, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ForStmt:
				walk(n.Body, true)
				return false
			case *ast.RangeStmt:
				walk(n.Body, true)
				return false
			case *ast.BranchStmt:
				switch {
				case n.Tok == token.GOTO && n.Label != nil && before(n.Label),
					n.Tok == token.BREAK && n.Label != nil && n.Label.Obj != own && before(n.Label),
					n.Tok == token.CONTINUE && n.Label == nil && !inLoop,
					n.Tok == token.CONTINUE && n.Label != nil && before(n.Label):
					jumps = append(jumps, n)
				}
			}
			return true
		})
	}
	walk(s.Body, false)
	return jumps
}

// moveJumps makes each of jumps (gotos and continues) inside s (the
// select labelled label, the only statement of block) record which it was
// in the variable flag and break out of s; after s, the jump with that
// number runs:
//
//	{                                   (block)
//	    var __gocl_goto1 int
//	__gocl_sel1:
//	    select { ... { __gocl_goto1 = 1; break __gocl_sel1 } ... }
//	    if __gocl_goto1 == 1 { __gocl_goto1 = 0; goto again }
//	}
//
// (the variable is reset there: the label may stand in the block, after
// its declaration).
func moveJumps(block *ast.BlockStmt, s *ast.SelectStmt, label, flag string, jumps []*ast.BranchStmt) {
	pos := s.Select
	id := func(name string) *ast.Ident { return &ast.Ident{NamePos: pos, Name: name} }
	num := func(k int) *ast.BasicLit { return &ast.BasicLit{ValuePos: pos, Kind: token.INT, Value: fmt.Sprint(k)} }
	repl := map[ast.Stmt]ast.Stmt{}
	var after []ast.Stmt
	for k, g := range jumps {
		repl[g] = &ast.BlockStmt{Lbrace: g.Pos(), Rbrace: g.End(), List: []ast.Stmt{
			&ast.AssignStmt{Lhs: []ast.Expr{id(flag)}, TokPos: g.Pos(), Tok: token.ASSIGN, Rhs: []ast.Expr{num(k + 1)}},
			&ast.BranchStmt{TokPos: g.Pos(), Tok: token.BREAK, Label: &ast.Ident{NamePos: g.Pos(), Name: label}},
		}}
		after = append(after, &ast.IfStmt{If: pos,
			Cond: &ast.BinaryExpr{X: id(flag), OpPos: pos, Op: token.EQL, Y: num(k + 1)},
			Body: &ast.BlockStmt{Lbrace: pos, Rbrace: pos, List: []ast.Stmt{
				&ast.AssignStmt{Lhs: []ast.Expr{id(flag)}, TokPos: pos, Tok: token.ASSIGN, Rhs: []ast.Expr{num(0)}},
				g,
			}}})
	}
	replaceStmts(s.Body, repl)
	decl := &ast.DeclStmt{Decl: &ast.GenDecl{TokPos: pos, Tok: token.VAR, Specs: []ast.Spec{
		&ast.ValueSpec{Names: []*ast.Ident{id(flag)}, Type: id("int")}}}}
	block.List = append(append([]ast.Stmt{decl}, block.List...), after...)
}

// replaceStmts replaces the statements under n that repl names.
func replaceStmts(n ast.Node, repl map[ast.Stmt]ast.Stmt) {
	list := func(l []ast.Stmt) {
		for i, st := range l {
			if r, ok := repl[st]; ok {
				l[i] = r
			}
		}
	}
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BlockStmt:
			list(n.List)
		case *ast.CaseClause:
			list(n.Body)
		case *ast.CommClause:
			list(n.Body)
		case *ast.LabeledStmt:
			if r, ok := repl[n.Stmt]; ok {
				n.Stmt = r
			}
		}
		return true
	})
}

// ownBreaks returns the breaks without a label that leave s.
func ownBreaks(s *ast.SelectStmt) []*ast.BranchStmt {
	var breaks []*ast.BranchStmt
	for _, c := range s.Body.List {
		for _, st := range c.(*ast.CommClause).Body {
			ast.Inspect(st, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt, *ast.FuncLit:
					return false
				case *ast.BranchStmt:
					if n.Tok == token.BREAK && n.Label == nil {
						breaks = append(breaks, n)
					}
				}
				return true
			})
		}
	}
	return breaks
}

var passSelects = pass{
	name:     "selects",
	bug:      "a break in a select case leaves the enclosing loop; a goto or continue out of a select sends the compiler into endless recursion",
	file:     "yaegi_select.go",
	changes:  "select statements, their breaks, gotos and continues",
	userOnly: true,
	chunk: func(c *cellRun, p *parsed) {
		if n := p.node(); n != nil {
			rewriteSelects(n)
		}
	},
}
