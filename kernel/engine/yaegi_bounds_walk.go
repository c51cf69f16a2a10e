package engine

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
)

// This file finds what a statement evaluates, in the order Go evaluates it,
// for yaegi_bounds.go: the index and slice expressions it may check
// (sites), and every operation that may have an effect or panic (risks).
// A site is checked before the statement only when every risk is evaluated
// after it.

// site is one expression of a statement, with the path from the
// statement's root down to it (the expression included).
type site struct {
	x    ast.Expr
	path []ast.Node
}

// seqNode and stepNode stand for parts of a statement that Go evaluates in
// a fixed order: the right side of `x[i] = v` before the index on the
// left, one var spec before the next. Any other two operands of a node are
// taken as evaluated in an order that is not known.
type seqNode struct{ ast.BadExpr }

type stepNode struct {
	ast.BadExpr
	i int
}

// walker walks one statement.
type walker struct {
	b      *bounder
	within ast.Stmt // variables declared inside it are not read by a check
	stack  []ast.Node
	sites  []site
	risks  []site
	opaque bool // the statement gets no checks
	// early holds the expressions Go's compiler may evaluate before the
	// rest of the statement, whatever their place in it: calls (min and
	// max too), map indexes and literals, slice expressions. `ys[i] +
	// m[xs[j]]` evaluates xs[j] first, `xs[j] + len(xs[j:])` the slice.
	// (The value is the order in which they are evaluated: as written.)
	early map[ast.Node]int
	// apart holds the right-hand sides of a tuple assignment, which Go's
	// compiler may evaluate in either order (right to left when the
	// targets are captured variables).
	apart map[ast.Node]bool
}

// hoist marks x as evaluated early (see walker.early).
func (w *walker) hoist(x ast.Node) {
	if w.early == nil {
		w.early = map[ast.Node]int{}
	}
	if _, seen := w.early[x]; !seen {
		w.early[x] = len(w.early)
	}
}

func (w *walker) here() []ast.Node { return append([]ast.Node(nil), w.stack...) }

func (w *walker) risk() { w.risks = append(w.risks, site{path: w.here()}) }

// seq walks the parts in order, each a step of one seqNode.
func (w *walker) seq(parts ...func()) {
	w.stack = append(w.stack, &seqNode{})
	for i, part := range parts {
		w.stack = append(w.stack, &stepNode{i: i})
		part()
		w.stack = w.stack[:len(w.stack)-1]
	}
	w.stack = w.stack[:len(w.stack)-1]
}

// group walks xs, in no known order; cond is expr's.
func (w *walker) group(xs []ast.Expr, cond bool) {
	w.stack = append(w.stack, &ast.BadExpr{})
	for _, x := range xs {
		w.expr(x, cond)
	}
	w.stack = w.stack[:len(w.stack)-1]
}

// stmt walks what st evaluates before it does anything else.
func (w *walker) stmt(st ast.Stmt) {
	switch s := st.(type) {
	case *ast.ExprStmt:
		w.expr(s.X, false)
	case *ast.IncDecStmt:
		w.expr(s.X, false)
	case *ast.SendStmt:
		w.group([]ast.Expr{s.Chan, s.Value}, false)
	case *ast.ReturnStmt:
		w.group(s.Results, false)
	case *ast.GoStmt:
		w.expr(s.Call, false)
	case *ast.DeferStmt:
		w.expr(s.Call, false)
	case *ast.AssignStmt:
		w.assign(s)
	case *ast.DeclStmt:
		g, ok := s.Decl.(*ast.GenDecl)
		if !ok || g.Tok != token.VAR {
			return
		}
		var parts []func()
		for _, spec := range g.Specs {
			if v, ok := spec.(*ast.ValueSpec); ok {
				parts = append(parts, func() { w.group(v.Values, false) })
			}
		}
		w.seq(parts...)
	case *ast.IfStmt:
		if s.Init != nil {
			w.stmt(s.Init)
		} else {
			w.expr(s.Cond, false)
		}
	case *ast.SwitchStmt:
		if s.Init != nil {
			w.stmt(s.Init)
		} else if s.Tag != nil {
			w.expr(s.Tag, false)
		}
	case *ast.TypeSwitchStmt:
		if s.Init != nil {
			w.stmt(s.Init)
			return
		}
		var guard ast.Expr
		switch a := s.Assign.(type) {
		case *ast.ExprStmt:
			guard = a.X
		case *ast.AssignStmt:
			if len(a.Rhs) == 1 {
				guard = a.Rhs[0]
			}
		}
		if ta, ok := unparen(guard).(*ast.TypeAssertExpr); ok {
			w.expr(ta.X, false) // the switch's assertion cannot panic
		}
	case *ast.ForStmt:
		if s.Init != nil {
			w.stmt(s.Init)
		}
	case *ast.RangeStmt:
		w.expr(s.X, false)
	case *ast.LabeledStmt:
		w.stmt(s.Stmt)
	}
}

// assign walks an assignment: an index on the left of `=` is evaluated
// after the right side, the operand of `op=` before it, and the targets
// of a tuple assignment are assigned one by one after everything else (a
// panic there leaves the earlier ones assigned), so they get no check.
func (w *walker) assign(s *ast.AssignStmt) {
	for _, l := range s.Lhs {
		ast.Inspect(l, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				w.opaque = !w.pureCall(n)
			case *ast.FuncLit:
				w.opaque = true
			case *ast.UnaryExpr:
				if n.Op == token.ARROW {
					w.opaque = true
				}
			}
			return !w.opaque
		})
	}
	switch {
	case len(s.Rhs) > 1:
		w.apart = map[ast.Node]bool{}
		for _, r := range s.Rhs {
			w.apart[r] = true
		}
		w.group(s.Rhs, false)
	case s.Tok == token.DEFINE || len(s.Lhs) != 1:
		w.group(s.Rhs, false)
	case s.Tok == token.ASSIGN:
		w.seq(func() { w.group(s.Rhs, false) }, func() { w.expr(s.Lhs[0], false) })
	default: // op=
		w.seq(func() { w.expr(s.Lhs[0], false) }, func() { w.group(s.Rhs, false) })
	}
}

// expr walks x; cond says that x may not be evaluated at all (it is in the
// right operand of && or ||).
func (w *walker) expr(x ast.Expr, cond bool) {
	if x == nil {
		return
	}
	w.stack = append(w.stack, x)
	defer func() { w.stack = w.stack[:len(w.stack)-1] }()
	info := w.b.info
	tv, typed := info.Types[x]
	if typed && tv.IsType() {
		return // nothing is evaluated
	}
	if !typed {
		switch x := x.(type) {
		case *ast.Ident:
			if info.Uses[x] == nil {
				w.risk() // a name gocl's rewrites made: unknown
			}
		case *ast.KeyValueExpr:
			w.expr(x.Key, cond)
			w.expr(x.Value, cond)
		default:
			w.risk()
		}
		return
	}
	switch x := x.(type) {
	case *ast.Ident, *ast.BasicLit, *ast.FuncLit, *ast.IndexListExpr:
	case *ast.ParenExpr:
		w.expr(x.X, cond)
	case *ast.CompositeLit:
		m, isMap := tv.Type.Underlying().(*types.Map)
		if isMap {
			w.hoist(x)
		}
		_, isStruct := tv.Type.Underlying().(*types.Struct)
		for _, el := range x.Elts {
			kv, isKV := el.(*ast.KeyValueExpr)
			switch {
			case isKV && isStruct:
				w.expr(kv.Value, cond)
			case isKV && isMap:
				// Go's compiler evaluates an entry's value before its
				// key (as in m[k] = v), and puts each entry in before the
				// next is evaluated, where an interface key may not hash.
				w.stack = append(w.stack, kv)
				if types.IsInterface(m.Key()) {
					w.risk()
				}
				w.expr(kv.Value, cond)
				w.expr(kv.Key, cond)
				w.stack = w.stack[:len(w.stack)-1]
			default:
				w.expr(el, cond)
			}
		}
	case *ast.SelectorExpr:
		if sel, ok := info.Selections[x]; ok {
			if sel.Indirect() || types.IsInterface(sel.Recv()) {
				w.risk() // a nil pointer or interface
			}
			w.expr(x.X, cond)
			return
		}
		if pkg, ok := x.X.(*ast.Ident); ok {
			if _, ok := info.Uses[pkg].(*types.PkgName); ok {
				return // a package's name
			}
		}
		w.risk()
	case *ast.StarExpr:
		w.risk()
		w.expr(x.X, cond)
	case *ast.UnaryExpr:
		if x.Op == token.ARROW {
			w.risk()
		}
		w.expr(x.X, cond)
	case *ast.BinaryExpr:
		w.binary(x, cond)
	case *ast.CallExpr:
		w.call(x, cond)
	case *ast.IndexExpr:
		w.index(x, cond)
	case *ast.SliceExpr:
		w.slice(x, cond)
	case *ast.TypeAssertExpr:
		w.risk()
		w.expr(x.X, cond)
	default:
		w.risk()
	}
}

func (w *walker) binary(x *ast.BinaryExpr, cond bool) {
	info := w.b.info
	switch x.Op {
	case token.LAND, token.LOR:
		w.expr(x.X, cond)
		w.expr(x.Y, true)
		return
	case token.QUO, token.REM:
		if isIntegerType(info.TypeOf(x)) && info.Types[x.Y].Value == nil {
			w.risk() // division by zero
		}
	case token.SHL, token.SHR:
		if info.Types[x.Y].Value == nil && !isUnsignedType(info.TypeOf(x.Y)) {
			w.risk() // a negative shift
		}
	case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
		if !plainComparable(info.TypeOf(x.X)) || !plainComparable(info.TypeOf(x.Y)) {
			w.risk() // interfaces holding values that do not compare
		}
	}
	w.expr(x.X, cond)
	w.expr(x.Y, cond)
}

// pureBuiltins neither panic nor change a variable.
var pureBuiltins = map[string]bool{"len": true, "cap": true, "append": true, "min": true, "max": true,
	"complex": true, "real": true, "imag": true, "new": true}

// pureCall reports whether x is a conversion or a call of a builtin that
// neither panics nor changes a variable.
func (w *walker) pureCall(x *ast.CallExpr) bool {
	if tv, ok := w.b.info.Types[x.Fun]; ok && tv.IsType() {
		return true
	}
	f, ok := unparen(x.Fun).(*ast.Ident)
	if !ok {
		return false
	}
	bi, ok := w.b.info.Uses[f].(*types.Builtin)
	return ok && pureBuiltins[bi.Name()]
}

func (w *walker) call(x *ast.CallExpr, cond bool) {
	info := w.b.info
	if f, ok := unparen(x.Fun).(*ast.Ident); !ok || f.Name != "len" && f.Name != "cap" {
		if tv, ok := info.Types[x.Fun]; !ok || !tv.IsType() {
			w.hoist(x) // not a conversion
		}
	}
	if tv, ok := info.Types[x.Fun]; ok && tv.IsType() {
		if len(x.Args) == 1 {
			switch tv.Type.Underlying().(type) {
			case *types.Array, *types.Pointer: // from a slice too short
				if _, ok := info.TypeOf(x.Args[0]).Underlying().(*types.Slice); ok {
					w.risk()
				}
			}
		}
		w.group(x.Args, cond)
		return
	}
	if w.pureCall(x) {
		w.group(x.Args, cond)
		return
	}
	w.risk() // a call may change any variable, print, or panic
	w.expr(x.Fun, cond)
	w.group(x.Args, cond)
}

func (w *walker) index(x *ast.IndexExpr, cond bool) {
	info := w.b.info
	switch u := info.TypeOf(x.X).Underlying().(type) {
	case *types.Signature:
		return // a generic function's instance
	case *types.Map:
		w.hoist(x)
		if types.IsInterface(u.Key()) {
			w.risk() // a key that does not hash
		}
	case *types.Slice, *types.Array, *types.Basic:
		if !cond && w.canCheck(x.X, x.Index) {
			w.sites = append(w.sites, site{x: x, path: w.here()})
			return
		}
		w.risk()
	default: // a pointer to an array, a type parameter
		w.risk()
	}
	w.expr(x.X, cond)
	w.expr(x.Index, cond)
}

func (w *walker) slice(x *ast.SliceExpr, cond bool) {
	w.hoist(x)
	if !cond && w.canCheck(x.X, x.Low, x.High, x.Max) {
		w.sites = append(w.sites, site{x: x, path: w.here()})
		return
	}
	w.risk()
	w.expr(x.X, cond)
	w.expr(x.Low, cond)
	w.expr(x.High, cond)
	w.expr(x.Max, cond)
}

// canCheck reports whether a check can read operand and bounds as the
// statement will: operand a variable or constant of slice, array or string
// type (an array's slice: a variable), the bounds pure integer expressions.
func (w *walker) canCheck(operand ast.Expr, bounds ...ast.Expr) bool {
	obj := w.value(unparen(operand))
	if obj == nil {
		return false
	}
	switch u := obj.Type().Underlying().(type) {
	case *types.Slice:
	case *types.Array:
		if _, isVar := obj.(*types.Var); !isVar {
			return false
		}
	case *types.Basic:
		if u.Info()&types.IsString == 0 {
			return false
		}
	default:
		return false
	}
	for _, x := range bounds {
		if x != nil && (!isIntegerType(w.b.info.TypeOf(x)) && w.b.info.Types[x].Value == nil || !w.pure(x)) {
			return false
		}
	}
	return true
}

// value is the variable or constant that id names, when the statement
// does not declare it.
func (w *walker) value(x ast.Expr) types.Object {
	id, ok := x.(*ast.Ident)
	if !ok {
		return nil
	}
	switch o := w.b.info.Uses[id].(type) {
	case *types.Const:
		return o
	case *types.Var:
		if o.IsField() || o.Pos() >= w.within.Pos() && o.Pos() < w.within.End() {
			return nil
		}
		return o
	}
	return nil
}

// pure reports whether x reads only variables the statement does not
// declare, and cannot panic: constants, arithmetic other than a division
// by a variable, conversions to integer types, len and cap of a variable.
func (w *walker) pure(x ast.Expr) bool {
	info := w.b.info
	tv, ok := info.Types[x]
	if !ok {
		return false
	}
	if tv.Value != nil {
		return true
	}
	switch x := x.(type) {
	case *ast.ParenExpr:
		return w.pure(x.X)
	case *ast.Ident:
		return w.value(x) != nil
	case *ast.UnaryExpr:
		return (x.Op == token.ADD || x.Op == token.SUB || x.Op == token.XOR) && w.pure(x.X)
	case *ast.BinaryExpr:
		switch x.Op {
		case token.ADD, token.SUB, token.MUL, token.AND, token.OR, token.XOR, token.AND_NOT:
		case token.QUO, token.REM:
			if v := info.Types[x.Y].Value; v == nil || constant.Sign(v) == 0 {
				return false
			}
		case token.SHL, token.SHR:
			if info.Types[x.Y].Value == nil {
				return false
			}
		default:
			return false
		}
		return w.pure(x.X) && w.pure(x.Y)
	case *ast.CallExpr:
		if len(x.Args) != 1 {
			return false
		}
		if ft, ok := info.Types[x.Fun]; ok && ft.IsType() {
			return isIntegerType(ft.Type) && w.pure(x.Args[0])
		}
		f, ok := unparen(x.Fun).(*ast.Ident)
		if !ok {
			return false
		}
		if bi, ok := info.Uses[f].(*types.Builtin); !ok || bi.Name() != "len" && bi.Name() != "cap" {
			return false
		}
		obj := w.value(unparen(x.Args[0]))
		if obj == nil {
			return false
		}
		_, isPtr := obj.Type().Underlying().(*types.Pointer)
		return !isPtr
	}
	return false
}

func isIntegerType(t types.Type) bool {
	if t == nil {
		return false
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

func isUnsignedType(t types.Type) bool {
	if t == nil {
		return false
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsUnsigned != 0
}

// plainComparable reports whether comparing values of t cannot panic.
func plainComparable(t types.Type) bool {
	if t == nil {
		return false
	}
	switch t.Underlying().(type) {
	case *types.Basic, *types.Pointer, *types.Chan:
		return true
	}
	return false
}
