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
// statement stands directly in a block (not in a case's statements). A
// select that already has a label keeps it and its breaks name that one. A
// break belongs to the select when no for, range, switch, type switch or
// select statement, nor a function literal, stands between them. Upgrading
// yaegi past this bug means deleting this file and its call.

var selectSeq atomic.Int64

// rewriteSelects labels the selects under n and the breaks that leave them
// (see above).
func rewriteSelects(n ast.Node) {
	labelList := func(list []ast.Stmt) {
		for i, st := range list {
			s, ok := st.(*ast.SelectStmt)
			if !ok || len(ownBreaks(s)) == 0 {
				continue
			}
			label := &ast.Ident{NamePos: s.Select, Name: fmt.Sprintf("%ssel%d", helperPrefix, selectSeq.Add(1))}
			list[i] = &ast.BlockStmt{Lbrace: s.Select, Rbrace: s.End(),
				List: []ast.Stmt{&ast.LabeledStmt{Label: label, Colon: s.Select, Stmt: s}}}
		}
	}
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BlockStmt:
			labelList(n.List)
		case *ast.CaseClause:
			labelList(n.Body)
		case *ast.CommClause:
			labelList(n.Body)
		case *ast.LabeledStmt:
			// Visited after its list labelled it, or labelled by the cell.
			if s, ok := n.Stmt.(*ast.SelectStmt); ok {
				for _, b := range ownBreaks(s) {
					b.Label = &ast.Ident{NamePos: b.TokPos, Name: n.Label.Name}
				}
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
