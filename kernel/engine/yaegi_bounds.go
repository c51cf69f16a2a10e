package engine

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"
)

// yaegi v0.16.1 indexes and slices through package reflect, whose panics
// say neither the index nor the length: yaegi_panics.go gives them Go's
// words, but Go's numbers ("index out of range [3] with length 0") are not
// in them. In a cell that go/types checked, this file puts Go's own bounds
// check before a statement, for the index and slice expressions that the
// statement evaluates first, whatever else it does:
//
//	n += xs[i]    →  if i < 0 || i >= len(xs) {
//	                     panic(__gocl_hook.Bounds(0, 0, len(xs), int64(i), 0, 0))
//	                 }
//	                 n += xs[i]
//
// The check must panic exactly when Go's would, and first: a false panic
// would be a wrong answer, while a check left out only leaves the numbers
// out, as before. So an expression is checked only when
//
//   - the indexed operand is a variable (or constant) of slice, array or
//     string type, and the index and bounds are built from variables,
//     constants, arithmetic that cannot panic, len and cap: the check reads
//     the same values the statement will;
//   - none of those variables is declared by the statement itself (an if,
//     for or switch init, an earlier spec of the same var);
//   - the statement evaluates it unconditionally: not in the right operand
//     of && or ||, a case expression, a for loop's condition or post, an
//     else-if's condition, a function literal's body (checked in that body);
//   - nothing the statement may evaluate before it can have an effect or
//     panic: a call (which may change a variable the check read, or print),
//     a receive, a division by a variable, a dereference, a type assertion,
//     another index that is not checked. Only what is evaluated after it
//     (the call it is an argument of, the right operand of an && whose left
//     operand holds it) may do so;
//   - the checks of one statement come in the order Go's compiler evaluates
//     the expressions: as written, but calls, map indexes and slice
//     expressions first, and the values of a tuple assignment in no order
//     one can rely on; a check that could come out of that order is left
//     out (walker.allowed).
//
// Indexes that are in range by construction get no check, as Go's compiler
// drops its own: xs[i] in `for i := range xs` and in `for i := 0; i <
// len(xs); i++`, when the body assigns neither i nor xs. In such a loop, an
// index ys[i] of another slice is checked only when one test before the
// loop (`len(xs) > len(ys)`) says that it can be out of range, so that the
// loop runs at nearly its old speed (bench/indexcheck).
//
// Upgrading to an interpreter that reports Go's numbers means deleting this
// file and its call.

// hasIndexing reports whether the cell indexes or slices anything, which
// only its types can tell apart from a map's index or a generic call.
func hasIndexing(ps []*parsed) bool {
	found := false
	for _, p := range ps {
		if n := p.node(); n != nil {
			ast.Inspect(n, func(n ast.Node) bool {
				switch n.(type) {
				case *ast.IndexExpr, *ast.SliceExpr:
					found = true
				}
				return !found
			})
		}
	}
	return found
}

// boundsNames are the names the checks use; a cell or session that declares
// one of them gets no checks.
var boundsNames = []string{"len", "cap", "int64", "uint64", "panic", "true", "false"}

// rewriteBounds adds the checks (see above) to the cell's statements and
// function bodies, by the types in info.
func (e *Engine) rewriteBounds(ps []*parsed, info *types.Info) {
	for _, obj := range info.Defs {
		if obj != nil && isBoundsName(obj.Name()) {
			return
		}
	}
	e.state.Lock()
	for _, n := range boundsNames {
		if _, mine := e.decls[n]; mine {
			e.state.Unlock()
			return
		}
	}
	e.state.Unlock()
	b := newBounder(info)
	defer func() {
		// A check that could not be written (a bug of this file) leaves
		// the statements it was for as they were.
		if r := recover(); r != nil {
			writeStderr(fmt.Sprintf("gocl: note: Go's bounds numbers are left out of this cell (%v)\n", r))
		}
	}()
	for _, p := range ps {
		switch {
		case p.body != nil:
			p.body.List = b.list(p.body.List)
		case p.file != nil:
			b.file(p.file)
		}
	}
}

func isBoundsName(name string) bool {
	for _, n := range boundsNames {
		if n == name {
			return true
		}
	}
	return false
}

// bounder adds the checks to one cell.
type bounder struct {
	info  *types.Info
	loops map[types.Object]*loopFacts // by the loop's index variable
	depth int                         // of the loops around the statement
	seq   int
}

func newBounder(info *types.Info) *bounder {
	return &bounder{info: info, loops: map[types.Object]*loopFacts{}}
}

// file adds the checks to the function bodies of f.
func (b *bounder) file(f *ast.File) {
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			// yaegi's generics handle few forms: their code is left as
			// written.
			if d.Body != nil && d.Type.TypeParams == nil && !genericRecv(d) {
				d.Body.List = b.list(d.Body.List)
			}
		case *ast.GenDecl:
			b.funcLits(d)
		}
	}
}

// genericRecv reports whether d is a method of a generic type.
func genericRecv(d *ast.FuncDecl) bool {
	if d.Recv == nil || len(d.Recv.List) == 0 {
		return false
	}
	t := d.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	switch t.(type) {
	case *ast.IndexExpr, *ast.IndexListExpr:
		return true
	}
	return false
}

// list returns l with the checks before its statements, and the statements'
// own blocks and function literals checked.
func (b *bounder) list(l []ast.Stmt) []ast.Stmt {
	out := make([]ast.Stmt, 0, len(l))
	for _, st := range l {
		checks := b.checks(st)
		loop := b.enterLoop(st)
		b.nested(st)
		out = append(out, checks...)
		out = append(out, b.leaveLoop(loop, st))
	}
	return out
}

// nested checks the blocks inside st and the function literals its
// expressions hold.
func (b *bounder) nested(st ast.Stmt) {
	switch s := st.(type) {
	case *ast.BlockStmt:
		s.List = b.list(s.List)
	case *ast.LabeledStmt:
		b.nested(s.Stmt)
	case *ast.IfStmt:
		b.funcLits(s.Init, s.Cond)
		s.Body.List = b.list(s.Body.List)
		if s.Else != nil {
			b.nested(s.Else)
		}
	case *ast.ForStmt:
		b.funcLits(s.Init, s.Cond, s.Post)
		b.depth++
		s.Body.List = b.list(s.Body.List)
		b.depth--
	case *ast.RangeStmt:
		b.funcLits(s.X)
		b.depth++
		s.Body.List = b.list(s.Body.List)
		b.depth--
	case *ast.SwitchStmt:
		b.funcLits(s.Init, s.Tag)
		b.clauses(s.Body)
	case *ast.TypeSwitchStmt:
		b.funcLits(s.Init, s.Assign)
		b.clauses(s.Body)
	case *ast.SelectStmt:
		b.clauses(s.Body)
	default:
		b.funcLits(st)
	}
}

func (b *bounder) clauses(body *ast.BlockStmt) {
	for _, c := range body.List {
		switch c := c.(type) {
		case *ast.CaseClause:
			for _, x := range c.List {
				b.funcLits(x)
			}
			c.Body = b.list(c.Body)
		case *ast.CommClause:
			b.funcLits(c.Comm)
			c.Body = b.list(c.Body)
		}
	}
}

// funcLits checks the bodies of the function literals under ns.
func (b *bounder) funcLits(ns ...ast.Node) {
	for _, n := range ns {
		if n == nil {
			continue
		}
		ast.Inspect(n, func(n ast.Node) bool {
			if f, ok := n.(*ast.FuncLit); ok {
				f.Body.List = b.list(f.Body.List)
				return false
			}
			return true
		})
	}
}

// checks returns the checks to put before st.
func (b *bounder) checks(st ast.Stmt) []ast.Stmt {
	w := &walker{b: b, within: st}
	w.stmt(st)
	var out []ast.Stmt
	for _, c := range w.allowed() {
		s := b.check(c)
		if s == nil {
			continue
		}
		// Checks gated by the same loop guard share one test of it.
		if g, ok := s.(*ast.IfStmt); ok && len(out) > 0 {
			if prev, ok := out[len(out)-1].(*ast.IfStmt); ok && sameGuard(prev, g) {
				prev.Body.List = append(prev.Body.List, g.Body.List...)
				continue
			}
		}
		out = append(out, s)
	}
	return out
}

// sameGuard reports whether a and b both test the same loop guard.
func sameGuard(a, b *ast.IfStmt) bool {
	x, ok1 := a.Cond.(*ast.Ident)
	y, ok2 := b.Cond.(*ast.Ident)
	return ok1 && ok2 && x.Name == y.Name && strings.HasPrefix(x.Name, helperPrefix)
}

// nextName returns a fresh name for a loop's guard, true when an index
// of the loop may be out of range.
func (b *bounder) nextName() string {
	b.seq++
	return helperPrefix + "out" + strconv.Itoa(b.seq)
}

// id returns an identifier at pos.
func id(pos token.Pos, name string) *ast.Ident { return &ast.Ident{NamePos: pos, Name: name} }

var passBounds = pass{
	name:     "bounds",
	bug:      "index and slice panics come through reflect without Go's numbers (\"index out of range [3] with length 0\")",
	file:     "yaegi_bounds.go",
	reads:    needTypes | needSession,
	changes:  "adds bounds checks before statements",
	userOnly: true,
	needed:   func(c *cellRun) bool { return hasIndexing(c.ps) },
	run: func(c *cellRun) *CellError {
		c.e.rewriteBounds(c.ps, c.checked.Info)
		return nil
	},
}
