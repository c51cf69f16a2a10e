package engine

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strconv"
)

// This file writes yaegi_bounds.go's checks, and knows the loops whose
// index is in range by construction.

// The forms of __gocl_hook.Bounds (boundsError in yaegi_panics.go).
const (
	boundsIndex     = iota // x[i]: i, len
	boundsSliceCap         // s[lo:hi] of a slice: lo, hi, cap
	boundsSliceLen         // of a string or an array: lo, hi, len
	boundsSlice3Cap        // s[lo:hi:max] of a slice: lo, hi, max, cap
	boundsSlice3Len        // of an array: lo, hi, max, len
)

// loopFacts is what a loop says of its index variable key: in the body,
// key is in [lo, hi) (hi included when incl), and, when over is set,
// key < len(over).
type loopFacts struct {
	key      types.Object
	over     types.Object
	lo, hi   ast.Expr // lo nil when it is the constant loConst
	loConst  int64
	incl     bool
	assigned map[types.Object]bool // by the body, closures included
	canGuard bool                  // a guard may go before the loop
	loop     ast.Stmt
	pos      token.Pos
	guard    string
	bad      []ast.Expr // the guard is true when one of them is
	guarded  map[guardedIndex]bool
}

// guardedIndex is an index key+off into operand that the guard tests.
type guardedIndex struct {
	operand types.Object
	off     int64
}

// enterLoop records the facts of the loop st is, if any.
func (b *bounder) enterLoop(st ast.Stmt) *loopFacts {
	labelled := false
	if l, ok := st.(*ast.LabeledStmt); ok {
		st, labelled = l.Stmt, true
	}
	var f *loopFacts
	switch s := st.(type) {
	case *ast.RangeStmt:
		f = b.rangeFacts(s)
	case *ast.ForStmt:
		f = b.forFacts(s)
	}
	if f == nil {
		return nil
	}
	// A label inside the block that holds the guard could not be the
	// target of a goto from outside it.
	f.canGuard = f.canGuard && !labelled
	b.loops[f.key] = f
	return f
}

// leaveLoop returns st, in a block after its guard if the body's checks
// used one.
func (b *bounder) leaveLoop(f *loopFacts, st ast.Stmt) ast.Stmt {
	if f == nil {
		return st
	}
	delete(b.loops, f.key)
	if len(f.bad) == 0 {
		return st
	}
	cond := f.bad[0]
	for _, t := range f.bad[1:] {
		cond = &ast.BinaryExpr{X: cond, OpPos: f.pos, Op: token.LOR, Y: t}
	}
	decl := &ast.AssignStmt{Lhs: []ast.Expr{id(f.pos, f.guard)}, TokPos: f.pos, Tok: token.DEFINE, Rhs: []ast.Expr{cond}}
	return &ast.BlockStmt{Lbrace: st.Pos(), List: []ast.Stmt{decl, st}, Rbrace: st.End()}
}

// rangeFacts: `for i := range xs` over a variable of slice, array or
// string type.
func (b *bounder) rangeFacts(s *ast.RangeStmt) *loopFacts {
	key, ok := s.Key.(*ast.Ident)
	if !ok || s.Tok != token.DEFINE || key.Name == "_" {
		return nil
	}
	obj := b.info.Defs[key]
	x, ok := unparen(s.X).(*ast.Ident)
	if obj == nil || !ok {
		return nil
	}
	over, ok := b.info.Uses[x].(*types.Var)
	if !ok || !indexable(over.Type()) {
		return nil
	}
	f := &loopFacts{key: obj, assigned: b.assigned(s.Body), loop: s, pos: s.For, canGuard: true,
		hi: lenOf(x), guarded: map[guardedIndex]bool{}}
	if !f.assigned[over] {
		f.over = over
	}
	if f.assigned[obj] {
		return nil
	}
	return f
}

// forFacts: `for i := lo; i < hi; i++` (or i <= hi), i an int.
func (b *bounder) forFacts(s *ast.ForStmt) *loopFacts {
	init, ok := s.Init.(*ast.AssignStmt)
	if !ok || init.Tok != token.DEFINE || len(init.Lhs) != 1 || len(init.Rhs) != 1 {
		return nil
	}
	key, ok := init.Lhs[0].(*ast.Ident)
	if !ok {
		return nil
	}
	obj := b.info.Defs[key]
	if obj == nil || !types.Identical(obj.Type(), types.Typ[types.Int]) {
		return nil
	}
	post, ok := s.Post.(*ast.IncDecStmt)
	if !ok || post.Tok != token.INC || !b.names(post.X, obj) {
		return nil
	}
	cond, ok := s.Cond.(*ast.BinaryExpr)
	if !ok || cond.Op != token.LSS && cond.Op != token.LEQ || !b.names(cond.X, obj) {
		return nil
	}
	f := &loopFacts{key: obj, assigned: b.assigned(s.Body), loop: s, pos: s.For, incl: cond.Op == token.LEQ,
		guarded: map[guardedIndex]bool{}}
	if f.assigned[obj] {
		return nil
	}
	// lo and hi are read before the loop, by its guard: they must be
	// pure, declared outside the loop, and hi not assigned by the body.
	w := &walker{b: b, within: s}
	lo, hi := init.Rhs[0], cond.Y
	if !w.pure(lo) || !w.pure(hi) || b.assignsAny(f.assigned, hi) {
		return f // no guard, no facts: a plain check
	}
	f.lo, f.hi, f.canGuard = lo, hi, true
	if v, exact := constant.Int64Val(constant.ToInt(b.info.Types[lo].Value)); exact {
		f.lo, f.loConst = nil, v
	}
	if c, ok := unparen(hi).(*ast.CallExpr); ok && f.lo == nil && f.loConst >= 0 && !f.incl && len(c.Args) == 1 {
		if fn, ok := unparen(c.Fun).(*ast.Ident); ok && fn.Name == "len" {
			if x := w.value(unparen(c.Args[0])); x != nil && !f.assigned[x] {
				if _, isBuiltin := b.info.Uses[fn].(*types.Builtin); isBuiltin {
					f.over = x
				}
			}
		}
	}
	return f
}

// names reports whether x is an identifier of obj.
func (b *bounder) names(x ast.Expr, obj types.Object) bool {
	id, ok := unparen(x).(*ast.Ident)
	return ok && b.info.Uses[id] == obj
}

// assignsAny reports whether x reads a variable in assigned.
func (b *bounder) assignsAny(assigned map[types.Object]bool, x ast.Expr) bool {
	found := false
	ast.Inspect(x, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && assigned[b.info.Uses[id]] {
			found = true
		}
		return !found
	})
	return found
}

// assigned returns the variables that body may assign: by assignment,
// ++ and --, a range with =, by taking their address, or calling a method
// with a pointer receiver on them.
func (b *bounder) assigned(body ast.Node) map[types.Object]bool {
	out := map[types.Object]bool{}
	mark := func(x ast.Expr) {
		if id, ok := unparen(x).(*ast.Ident); ok {
			if obj := b.info.ObjectOf(id); obj != nil {
				out[obj] = true
			}
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				mark(l)
			}
		case *ast.IncDecStmt:
			mark(n.X)
		case *ast.RangeStmt:
			if n.Tok == token.ASSIGN {
				mark(n.Key)
				mark(n.Value)
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				mark(n.X)
			}
		case *ast.SelectorExpr:
			if sel, ok := b.info.Selections[n]; ok && sel.Kind() == types.MethodVal {
				if sig, ok := sel.Obj().Type().(*types.Signature); ok && sig.Recv() != nil {
					if _, ptr := sig.Recv().Type().(*types.Pointer); ptr {
						mark(n.X)
					}
				}
			}
		}
		return true
	})
	return out
}

// check returns the check of site s, or nil when it needs none.
func (b *bounder) check(s site) ast.Stmt {
	switch x := s.x.(type) {
	case *ast.IndexExpr:
		return b.indexCheck(x)
	case *ast.SliceExpr:
		return b.sliceCheck(x)
	}
	return nil
}

func (b *bounder) indexCheck(x *ast.IndexExpr) ast.Stmt {
	pos := x.Lbrack
	operand := unparen(x.X).(*ast.Ident)
	obj := b.info.Uses[operand]
	tv := b.info.Types[x.Index]
	if tv.Value != nil && compilerChecks(obj) {
		return nil
	}
	n := lenOf(operand)
	var conds []ast.Expr
	switch {
	case tv.Value != nil && isUntypedOrInt(tv.Type):
		conds = []ast.Expr{binary(clone(x.Index), token.GEQ, n)}
	case types.Identical(tv.Type, types.Typ[types.Int]) && b.depth > 0 && !b.mayGoNegative(x.Index):
		// In a loop, the test below zero would cost as much again
		// (bench/indexcheck): an index of variables that no arithmetic
		// makes negative is tested against the length only, so that a
		// negative one has Go's words without its numbers, as before.
		conds = []ast.Expr{binary(clone(x.Index), token.GEQ, n)}
	case types.Identical(tv.Type, types.Typ[types.Int]):
		conds = []ast.Expr{binary(clone(x.Index), token.LSS, intLit(pos, 0)), binary(clone(x.Index), token.GEQ, n)}
	default:
		conds = []ast.Expr{binary(conv("uint64", clone(x.Index)), token.GEQ, conv("uint64", n))}
	}
	mask := 0
	if isUnsignedType(tv.Type) {
		mask = 1
	}
	st := boundsIf(pos, conds, boundsIndex, mask, lenOf(operand), x.Index)
	if key, off, ok := b.keyOffset(x.Index); ok {
		if f := b.loops[key]; f != nil {
			return b.inLoop(f, guardedIndex{obj, off}, st)
		}
	}
	return st
}

// mayGoNegative reports whether x holds a subtraction, a negation, a
// negative constant or a conversion (which may wrap), what makes an index
// of non-negative variables negative.
func (b *bounder) mayGoNegative(x ast.Expr) bool {
	neg := false
	ast.Inspect(x, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BinaryExpr:
			neg = neg || n.Op == token.SUB || n.Op == token.XOR || n.Op == token.AND_NOT
		case *ast.UnaryExpr:
			neg = neg || n.Op == token.SUB || n.Op == token.XOR
		case *ast.CallExpr:
			neg = true
		case ast.Expr:
			if v := b.info.Types[n].Value; v != nil && constant.Sign(v) < 0 {
				neg = true
			}
		}
		return !neg
	})
	return neg
}

// keyOffset reads an index of the form key, key+off, key-off or off+key,
// off a constant.
func (b *bounder) keyOffset(x ast.Expr) (key types.Object, off int64, ok bool) {
	x = unparen(x)
	if id, isID := x.(*ast.Ident); isID {
		return b.info.Uses[id], 0, b.info.Uses[id] != nil
	}
	bx, isBin := x.(*ast.BinaryExpr)
	if !isBin || bx.Op != token.ADD && bx.Op != token.SUB {
		return nil, 0, false
	}
	k, c := bx.X, bx.Y
	if bx.Op == token.ADD && b.info.Types[k].Value != nil {
		k, c = c, k
	}
	id, isID := unparen(k).(*ast.Ident)
	v, exact := constant.Int64Val(constant.ToInt(b.info.Types[c].Value))
	if !isID || !exact || b.info.Uses[id] == nil {
		return nil, 0, false
	}
	if bx.Op == token.SUB {
		v = -v
	}
	return b.info.Uses[id], v, true
}

// inLoop returns the check st of an index key+off into operand, key f's
// index: none when the loop keeps it in range, or gated by the loop's
// guard.
func (b *bounder) inLoop(f *loopFacts, ix guardedIndex, st ast.Stmt) ast.Stmt {
	if ix.operand == f.over && ix.off <= 0 && f.lo == nil && f.loConst+ix.off >= 0 {
		return nil
	}
	op := ix.operand.Pos()
	if !f.canGuard || f.assigned[ix.operand] || op >= f.loop.Pos() && op < f.loop.End() {
		return st
	}
	pos := f.pos
	var low ast.Expr // lo+off < 0
	switch {
	case f.lo != nil:
		low = binary(plus(clone(f.lo), ix.off, pos), token.LSS, intLit(pos, 0))
	case f.loConst+ix.off < 0:
		return st // out of range at the first iteration
	}
	if !f.guarded[ix] {
		if f.guard == "" {
			f.guard = b.nextName()
		}
		cmp := token.GTR // hi+off > len(operand)
		if f.incl {
			cmp = token.GEQ
		}
		term := ast.Expr(binary(plus(clone(f.hi), ix.off, pos), cmp, lenOf(id(pos, ix.operand.Name()))))
		if low != nil {
			term = binary(low, token.LOR, term)
		}
		f.guarded[ix] = true
		f.bad = append(f.bad, term)
	}
	at := st.Pos()
	return &ast.IfStmt{If: at, Cond: id(at, f.guard), Body: &ast.BlockStmt{Lbrace: at, List: []ast.Stmt{st}, Rbrace: at}}
}

// plus is x+off.
func plus(x ast.Expr, off int64, pos token.Pos) ast.Expr {
	switch {
	case off > 0:
		return binary(x, token.ADD, &ast.BasicLit{ValuePos: pos, Kind: token.INT, Value: strconv.FormatInt(off, 10)})
	case off < 0:
		return binary(x, token.SUB, &ast.BasicLit{ValuePos: pos, Kind: token.INT, Value: strconv.FormatInt(-off, 10)})
	}
	return x
}

func (b *bounder) sliceCheck(x *ast.SliceExpr) ast.Stmt {
	pos := x.Lbrack
	operand := unparen(x.X).(*ast.Ident)
	t := b.info.Uses[operand].Type()
	if x.Low == nil && x.High == nil && x.Max == nil {
		return nil
	}
	allConst, allInt := true, true
	mask := 0
	for i, e := range []ast.Expr{x.Low, x.High, x.Max} {
		if e == nil {
			continue
		}
		tv := b.info.Types[e]
		if tv.Value == nil {
			allConst = false
		}
		if !isUntypedOrInt(tv.Type) {
			allInt = false
		}
		if isUnsignedType(tv.Type) {
			mask |= 1 << i
		}
	}
	if allConst && compilerChecks(b.info.Uses[operand]) {
		return nil
	}
	var n ast.Expr
	form := boundsSliceLen
	if isSliceType(t) {
		n, form = capOf(operand), boundsSliceCap
	} else {
		n = lenOf(operand)
	}
	// Go's checks, hi against the capacity (or length), then lo against
	// hi: as ints when the bounds are, else as Go's code does, unsigned.
	var conds []ast.Expr
	above := func(x, y ast.Expr) { // x out of [0, y]
		if allInt {
			if b.info.Types[x].Value == nil {
				conds = append(conds, binary(clone(x), token.LSS, intLit(pos, 0)))
			}
			conds = append(conds, binary(clone(x), token.GTR, clone(y)))
			return
		}
		conds = append(conds, binary(conv("uint64", clone(x)), token.GTR, conv("uint64", clone(y))))
	}
	lo, hi, hi3 := x.Low, x.High, x.Max
	if x.Slice3 {
		form += boundsSlice3Cap - boundsSliceCap
		above(hi3, n)
		above(hi, hi3)
	} else if hi != nil {
		above(hi, n)
	}
	if hi == nil {
		hi = lenOf(operand)
	}
	if lo != nil {
		above(lo, hi)
	}
	if lo == nil {
		lo = intLit(pos, 0)
	}
	if hi3 == nil {
		hi3 = lo
	}
	nn := capOf(operand)
	if form == boundsSliceLen || form == boundsSlice3Len {
		nn = lenOf(operand)
	}
	return boundsIf(pos, conds, form, mask, nn, lo, hi, hi3)
}

// boundsIf is the check
//
//	if conds[0] || conds[1] ... {
//		panic(__gocl_hook.Bounds(form, mask, n, int64(xs[0]), ...))
//	}
//
// (Not a switch with the conds as its case list, which would cost less:
// yaegi v0.16.1 tests only the first expression of such a case.)
func boundsIf(pos token.Pos, conds []ast.Expr, form, mask int, n ast.Expr, xs ...ast.Expr) *ast.IfStmt {
	args := []ast.Expr{intLit(pos, form), intLit(pos, mask), n}
	for i := 0; i < 3; i++ {
		if i < len(xs) {
			args = append(args, conv("int64", clone(xs[i])))
		} else {
			args = append(args, intLit(pos, 0))
		}
	}
	hook := &ast.CallExpr{Fun: &ast.SelectorExpr{X: id(pos, helperPrefix+"hook"), Sel: id(pos, "Bounds")},
		Lparen: pos, Args: args, Rparen: pos}
	call := &ast.CallExpr{Fun: id(pos, "panic"), Lparen: pos, Args: []ast.Expr{hook}, Rparen: pos}
	cond := conds[0]
	for _, c := range conds[1:] {
		cond = binary(cond, token.LOR, c)
	}
	return &ast.IfStmt{If: pos, Cond: cond, Body: &ast.BlockStmt{Lbrace: pos, List: []ast.Stmt{&ast.ExprStmt{X: call}}, Rbrace: pos}}
}

func binary(x ast.Expr, op token.Token, y ast.Expr) *ast.BinaryExpr {
	return &ast.BinaryExpr{X: x, OpPos: x.Pos(), Op: op, Y: y}
}

func conv(to string, x ast.Expr) *ast.CallExpr {
	return &ast.CallExpr{Fun: id(x.Pos(), to), Lparen: x.Pos(), Args: []ast.Expr{x}, Rparen: x.Pos()}
}

func lenOf(x *ast.Ident) *ast.CallExpr { return conv("len", clone(x)) }
func capOf(x *ast.Ident) *ast.CallExpr { return conv("cap", clone(x)) }

// clone copies the pure expression x (see walker.pure) for a check.
func clone(x ast.Expr) ast.Expr {
	switch x := x.(type) {
	case *ast.Ident:
		c := *x
		return &c
	case *ast.BasicLit:
		c := *x
		return &c
	case *ast.ParenExpr:
		return &ast.ParenExpr{Lparen: x.Lparen, X: clone(x.X), Rparen: x.Rparen}
	case *ast.UnaryExpr:
		return &ast.UnaryExpr{OpPos: x.OpPos, Op: x.Op, X: clone(x.X)}
	case *ast.BinaryExpr:
		return &ast.BinaryExpr{X: clone(x.X), OpPos: x.OpPos, Op: x.Op, Y: clone(x.Y)}
	case *ast.SelectorExpr:
		return &ast.SelectorExpr{X: clone(x.X), Sel: clone(x.Sel).(*ast.Ident)}
	case *ast.CallExpr:
		args := make([]ast.Expr, len(x.Args))
		for i, a := range x.Args {
			args[i] = clone(a)
		}
		return &ast.CallExpr{Fun: clone(x.Fun), Lparen: x.Lparen, Args: args, Rparen: x.Rparen}
	}
	panic("gocl: clone of a bounds operand that is not pure: " + strconv.Quote(types.ExprString(x)))
}

func indexable(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Slice, *types.Array:
		return true
	case *types.Basic:
		return u.Info()&types.IsString != 0
	}
	return false
}

// compilerChecks reports whether Go's compiler checks constant indexes
// into obj: an array, or a constant string.
func compilerChecks(obj types.Object) bool {
	if _, ok := obj.(*types.Const); ok {
		return true
	}
	_, ok := obj.Type().Underlying().(*types.Array)
	return ok
}

func isSliceType(t types.Type) bool {
	_, ok := t.Underlying().(*types.Slice)
	return ok
}

func isUntypedOrInt(t types.Type) bool {
	if b, ok := t.(*types.Basic); ok && b.Info()&types.IsUntyped != 0 {
		return true
	}
	return types.Identical(t, types.Typ[types.Int])
}
