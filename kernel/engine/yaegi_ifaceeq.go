package engine

import (
	"go/ast"
	"go/token"
	"go/types"
	"reflect"

	"golang.org/x/tools/go/ast/astutil"

	"github.com/seed43a1e1ab/gocl/kernel/cellvalue"
)

// yaegi v0.16.1 compares interface values that hold a cell's value wrong:
// an error variable holds a cell's *MyErr in a wrapper (so that compiled
// code can call Error), and `err == ErrNotFound` compares the wrapper with
// the pointer: false where Go says true; two such wrappers panic
// ("comparing uncomparable type interp._error"). The sentinel error idiom
// is the commonest comparison in Go, so in a checked cell each == and !=
// that may compare a cell's value held in an interface is rewritten into a
// call that compares what the wrappers hold, with the types yaegi keeps:
//
//	err == ErrNotFound  →  __gocl_hook.Equal(err, ErrNotFound)
//	err != ErrNotFound  →  !__gocl_hook.Equal(err, ErrNotFound)
//
// A comparison with nil, or of two values whose static types are not
// interfaces, is left to yaegi, which gets those right. A `switch err {
// case ErrNotFound: }` compares the same way and is rewritten by the same
// rule. Upgrading yaegi past this bug means deleting this file and its
// calls in run.go.

// hasIfaceCompare reports whether the cell compares two operands neither of
// which is nil or a literal, in a session that declared a named type: the
// type check decides which comparisons take an interface.
func hasIfaceCompare(ps []*parsed, kinds map[string]string) bool {
	if len(kinds) == 0 {
		return false
	}
	return anyNode(cellNodes(ps), func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BinaryExpr:
			return (n.Op == token.EQL || n.Op == token.NEQ) && !isNilOrLit(n.X) && !isNilOrLit(n.Y)
		case *ast.SwitchStmt:
			return n.Tag != nil && !isNilOrLit(n.Tag)
		}
		return false
	})
}

func isNilOrLit(x ast.Expr) bool {
	switch x := ast.Unparen(x).(type) {
	case *ast.BasicLit:
		return true
	case *ast.Ident:
		return x.Name == "nil" || x.Name == "true" || x.Name == "false"
	}
	return false
}

// mayHoldCell reports whether comparing operands of types a and b may
// compare a cell's value held in an interface: one is an interface and the
// other an interface too or a cell's type (or a pointer to one).
func mayHoldCell(a, b types.Type) bool {
	cellish := func(t types.Type) bool {
		if p, ok := types.Unalias(t).(*types.Pointer); ok {
			t = p.Elem()
		}
		_, ok := isCell(t)
		return ok
	}
	ia, ib := types.IsInterface(a), types.IsInterface(b)
	return (ia && (ib || cellish(b))) || (ib && cellish(a))
}

// comparer is what the rewrite asks of the type check: whether comparing x
// with y may compare a cell's value held in an interface.
func comparer(info *types.Info) func(x, y ast.Expr) bool {
	isNil := func(x ast.Expr) bool { tv, ok := info.Types[x]; return ok && tv.IsNil() }
	return func(x, y ast.Expr) bool {
		tx, ty := info.TypeOf(x), info.TypeOf(y)
		return tx != nil && ty != nil && !isNil(x) && !isNil(y) && mayHoldCell(tx, ty)
	}
}

// hasCellCompare reports whether the cell has a comparison the rewrite
// below changes.
func hasCellCompare(ps []*parsed, info *types.Info) bool {
	compare := comparer(info)
	return anyNode(bodies(ps), func(n ast.Node) bool {
		switch c := n.(type) {
		case *ast.BinaryExpr:
			return (c.Op == token.EQL || c.Op == token.NEQ) && compare(c.X, c.Y)
		case *ast.SwitchStmt:
			if c.Init == nil && c.Tag != nil {
				for _, cc := range c.Body.List {
					for _, v := range cc.(*ast.CaseClause).List {
						if compare(c.Tag, v) {
							return true
						}
					}
				}
			}
		}
		return false
	})
}

// rewriteIfaceCompares rewrites the comparisons of the cell that may compare
// a cell's value held in an interface (see above). descID numbers the
// descriptor of an operand's static type when it is a cell's concrete type:
// yaegi hands such a value to compiled code bare (S(1) as a plain 1).
func rewriteIfaceCompares(ps []*parsed, info *types.Info, descID func(types.Type) int) {
	compare := comparer(info)
	id := func(x ast.Expr) ast.Expr {
		n := -1
		if t := info.TypeOf(x); t != nil && !types.IsInterface(t) {
			n = descID(t)
		}
		return intLit(x.Pos(), n)
	}
	for _, n := range bodies(ps) {
		astutil.Apply(n, nil, func(cur *astutil.Cursor) bool {
			switch c := cur.Node().(type) {
			case *ast.BinaryExpr:
				if (c.Op == token.EQL || c.Op == token.NEQ) && compare(c.X, c.Y) {
					cur.Replace(equalCall(c.X, id(c.X), c.Y, id(c.Y), c.Op == token.NEQ))
				}
			case *ast.SwitchStmt:
				rewriteTagSwitch(c, compare, id)
			}
			return true
		})
	}
}

// equalCall is __gocl_hook.Equal(x, idx, y, idy), negated for !=.
func equalCall(x, idx, y, idy ast.Expr, negate bool) ast.Expr {
	var call ast.Expr = &ast.CallExpr{Fun: hookSel(x.Pos(), "Equal"), Lparen: x.Pos(), Args: []ast.Expr{x, idx, y, idy}, Rparen: y.End()}
	if negate {
		call = &ast.UnaryExpr{OpPos: x.Pos(), Op: token.NOT, X: call}
	}
	return &ast.ParenExpr{Lparen: x.Pos(), X: call, Rparen: y.End()}
}

// rewriteTagSwitch turns `switch x { case a, b: ... }` into `switch
// __gocl_tag := x; { case Equal(__gocl_tag, a) || __gocl_tag == b: ... }`
// when some case compares as above: the tag is evaluated once, before the
// cases, and the cases in order until one holds, as Go does. A switch with
// an init statement of its own is left as it is (it would need a block
// around it, which a label on the switch cannot cross).
func rewriteTagSwitch(s *ast.SwitchStmt, compare func(x, y ast.Expr) bool, id func(ast.Expr) ast.Expr) {
	if s.Init != nil || s.Tag == nil {
		return
	}
	need := false
	for _, c := range s.Body.List {
		for _, v := range c.(*ast.CaseClause).List {
			need = need || compare(s.Tag, v)
		}
	}
	if !need {
		return
	}
	pos := s.Tag.Pos()
	tag := func() *ast.Ident { return &ast.Ident{NamePos: pos, Name: helperPrefix + "tag"} }
	tagID := id(s.Tag)
	for _, c := range s.Body.List {
		cc := c.(*ast.CaseClause)
		var cond ast.Expr
		for _, v := range cc.List {
			var one ast.Expr = &ast.BinaryExpr{X: tag(), OpPos: v.Pos(), Op: token.EQL, Y: v}
			if compare(s.Tag, v) {
				one = equalCall(tag(), tagID, v, id(v), false)
			}
			if cond == nil {
				cond = one
			} else {
				cond = &ast.BinaryExpr{X: cond, OpPos: v.Pos(), Op: token.LOR, Y: one}
			}
		}
		if cond != nil { // (a default clause has none)
			cc.List = []ast.Expr{cond}
		}
	}
	s.Init = &ast.AssignStmt{Lhs: []ast.Expr{tag()}, TokPos: pos, Tok: token.DEFINE, Rhs: []ast.Expr{s.Tag}}
	s.Tag = nil
}

// equal is __gocl_hook.Equal: a == b as Go compares them, for operands
// that may hold a cell's value in yaegi's wrappers. ida and idb number the
// descriptors of operands of a cell's concrete type (else -1). Each side is
// resolved to the value yaegi holds and the cell type it has (crossing.go);
// two cell values are equal when their types are the same and the values
// are ==; a cell value never equals a compiled one.
func (x *crossing) equal(a any, ida int, b any, idb int) bool {
	if ida < 0 && idb < 0 && !isYaegiValue(a) && !isYaegiValue(b) && !isBox(a) && !isBox(b) {
		for _, v := range []any{a, b} { // (Go names the type the panic is about)
			if nv, ok := v.(namedValue); ok && !reflect.TypeOf(nv.v).Comparable() {
				panic(&goRuntimeError{"runtime error: comparing uncomparable type " + nv.name})
			}
		}
		return a == b // compiled values (err == io.EOF): Go's own comparison
	}
	ra, da := x.operand(a, ida)
	rb, db := x.operand(b, idb)
	if (da == nil) != (db == nil) || (da != nil && da.String != db.String) {
		return false
	}
	if ra == nil || rb == nil {
		return ra == rb
	}
	if t := reflect.TypeOf(ra); t != reflect.TypeOf(rb) {
		return false
	} else if !t.Comparable() {
		name := t.String()
		if da != nil {
			name = da.String
		}
		panic(&goRuntimeError{"runtime error: comparing uncomparable type " + name})
	}
	return ra == rb
}

// operand is the value an operand of Equal holds, and its cell type: the
// static one when id numbers it, else what resolve finds.
func (x *crossing) operand(v any, id int) (any, *cellvalue.Type) {
	if raw, d, ok := cellvalue.Unbox(v); ok {
		// A value compiled code got boxed and gave back, as errors.Unwrap
		// gives the error a %w wrapped.
		if d != nil && d.Kind == cellvalue.Basic {
			d = nil
		}
		return raw, d
	}
	if d := x.desc(id); id >= 0 && d != nil {
		if inner, ok := valueInterfaceValue(v); ok {
			v = inner
		}
		if d.Kind == cellvalue.Basic {
			d = nil // not a cell's type after all
		}
		return v, d
	}
	raw, d, _ := x.resolve(v)
	if d != nil && d.Kind == cellvalue.Basic {
		d = nil
	}
	return raw, d
}

// isYaegiValue reports whether v is one of yaegi's representations of a
// cell's value that Go's == cannot compare as they are: a wrapper or a
// valueInterface.
func isYaegiValue(v any) bool {
	if v == nil {
		return false
	}
	if isYaegiWrapper(v) {
		return true
	}
	_, ok := valueInterfaceValue(v)
	return ok
}

// isBox reports whether v is a cell's value compiled code boxed
// (kernel/cellvalue).
func isBox(v any) bool {
	_, _, ok := cellvalue.Unbox(v)
	return ok
}
