package engine

import (
	"fmt"
	"go/ast"
	"go/token"
	"reflect"
	"strconv"

	"golang.org/x/tools/go/ast/astutil"
)

// yaegi v0.16.1 ignores, or refuses to compile, an assignment to a
// compiled package's variable: after `os.Args = []string{"a"}` or
// `flag.CommandLine = flag.NewFlagSet(...)` a cell goes on with the old
// value, and `runtime.MemProfileRate = 7` does not compile. In Go the
// assignment sets the package's variable. So a cell's assignment to one is
// rewritten into a call that sets it through the symbol table's value of
// the variable, which yaegi reads it through:
//
//	os.Args = x        →  __gocl_hook.SetVar(3, x)
//	pkg.V += x         →  __gocl_hook.SetVar(4, pkg.V + x)
//	pkg.V++            →  __gocl_hook.SetVar(5, pkg.V + 1)
//
// (the number picks the variable, looked up before the cell runs).
// Upgrading yaegi past this bug means deleting this file and its call.

// pkgVar is a compiled package's variable a cell assigns.
type pkgVar struct {
	name string        // pkg.Name, for errors
	v    reflect.Value // settable
}

// rewritePkgVarAssigns rewrites the cell's assignments to compiled
// packages' variables (see above). A name declared in the cell, or a
// package's function or constant, is left alone.
func (e *Engine) rewritePkgVarAssigns(ps []*parsed) {
	e.state.Lock()
	imports := make(map[string]string, len(e.imports))
	for n, p := range e.imports {
		imports[n] = p
	}
	e.state.Unlock()
	for n, p := range cellImports(ps) { // and the cell's own imports, made when the cell runs
		imports[n] = p
	}
	target := func(x ast.Expr) (int, bool) {
		sel, ok := ast.Unparen(x).(*ast.SelectorExpr)
		if !ok {
			return 0, false
		}
		pkg, ok := sel.X.(*ast.Ident)
		if !ok || pkg.Obj != nil { // (a local of that name: the parser resolved it)
			return 0, false
		}
		path, ok := imports[pkg.Name]
		if !ok {
			return 0, false
		}
		return e.pkgVarID(path, pkg.Name+"."+sel.Sel.Name, sel.Sel.Name)
	}
	set := func(pos token.Pos, id int, value ast.Expr) ast.Stmt {
		return &ast.ExprStmt{X: &ast.CallExpr{Fun: hookSel(pos, "SetVar"), Lparen: pos,
			Args: []ast.Expr{intLit(pos, id), value}, Rparen: value.End()}}
	}
	// pkg.V op= x reads the variable in compiled code too: yaegi reads a
	// basic-kind variable as its value when the statement was compiled.
	opSet := func(pos token.Pos, id int, op token.Token, x ast.Expr) ast.Stmt {
		return &ast.ExprStmt{X: &ast.CallExpr{Fun: hookSel(pos, "OpVar"), Lparen: pos,
			Args:   []ast.Expr{intLit(pos, id), &ast.BasicLit{ValuePos: pos, Kind: token.STRING, Value: strconv.Quote(op.String())}, x},
			Rparen: x.End()}}
	}
	for _, p := range ps {
		n := p.node()
		if n == nil {
			continue
		}
		astutil.Apply(n, nil, func(cur *astutil.Cursor) bool {
			switch s := cur.Node().(type) {
			case *ast.AssignStmt:
				if len(s.Lhs) != 1 || len(s.Rhs) != 1 || s.Tok == token.DEFINE {
					return true
				}
				id, ok := target(s.Lhs[0])
				if !ok {
					return true
				}
				if !inStmtList(cur) {
					return true
				}
				if s.Tok == token.ASSIGN {
					cur.Replace(set(s.Pos(), id, s.Rhs[0]))
				} else if op, ok := assignOp[s.Tok]; ok {
					cur.Replace(opSet(s.Pos(), id, op, s.Rhs[0]))
				}
			case *ast.IncDecStmt:
				id, ok := target(s.X)
				if !ok {
					return true
				}
				op := token.ADD
				if s.Tok == token.DEC {
					op = token.SUB
				}
				if inStmtList(cur) {
					cur.Replace(opSet(s.Pos(), id, op, &ast.BasicLit{ValuePos: s.TokPos, Kind: token.INT, Value: "1"}))
				}
			}
			return true
		})
	}
}

// inStmtList reports whether the cursor's statement stands in a list of
// statements, where a call may replace it (not a for loop's post
// statement, nor an if's init).
func inStmtList(cur *astutil.Cursor) bool {
	switch cur.Parent().(type) {
	case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
		return cur.Index() >= 0
	}
	return false
}

// assignOp is the operator of each op-assignment.
var assignOp = map[token.Token]token.Token{
	token.ADD_ASSIGN: token.ADD, token.SUB_ASSIGN: token.SUB, token.MUL_ASSIGN: token.MUL, token.QUO_ASSIGN: token.QUO,
	token.REM_ASSIGN: token.REM, token.AND_ASSIGN: token.AND, token.OR_ASSIGN: token.OR, token.XOR_ASSIGN: token.XOR,
	token.SHL_ASSIGN: token.SHL, token.SHR_ASSIGN: token.SHR, token.AND_NOT_ASSIGN: token.AND_NOT,
}

// pkgVarID numbers the variable name of the compiled package at path, if
// it is one (a settable value in its symbol table).
func (e *Engine) pkgVarID(path, full, name string) (int, bool) {
	v, ok := e.in.Symbols(path)[path][name]
	if !ok || !v.IsValid() || !v.CanSet() {
		return 0, false
	}
	e.state.Lock()
	defer e.state.Unlock()
	for i, pv := range e.pkgVars {
		if pv.name == full {
			return i, true
		}
	}
	e.pkgVars = append(e.pkgVars, pkgVar{name: full, v: v})
	return len(e.pkgVars) - 1, true
}

// setPkgVar is __gocl_hook.SetVar: the assignment of x to the variable id
// numbers, with Go's assignability (x came through an any).
func (e *Engine) setPkgVar(id int, x any) {
	e.state.Lock()
	pv := e.pkgVars[id]
	e.state.Unlock()
	t := pv.v.Type()
	if x == nil {
		pv.v.Set(reflect.Zero(t))
		return
	}
	xv := reflect.ValueOf(x)
	switch {
	case xv.Type().AssignableTo(t):
		pv.v.Set(xv)
	case xv.Type().ConvertibleTo(t) && xv.Kind() == t.Kind():
		pv.v.Set(xv.Convert(t)) // an untyped constant the cell gave its default type
	default:
		panic(fmt.Errorf("cannot assign a %s to %s (a %s)", xv.Type(), pv.name, t))
	}
}

// opVar is __gocl_hook.OpVar: pkg.V op= x, for the variable id numbers, of
// a number or (op "+") string kind.
func (e *Engine) opVar(id int, op string, x any) {
	e.state.Lock()
	pv := e.pkgVars[id]
	e.state.Unlock()
	cur, xv := pv.v, reflect.ValueOf(x)
	if !xv.IsValid() || !xv.Type().ConvertibleTo(cur.Type()) {
		panic(fmt.Errorf("cannot apply %s= with a %T to %s (a %s)", op, x, pv.name, cur.Type()))
	}
	y := xv.Convert(cur.Type())
	bad := func() { panic(fmt.Errorf("operator %s= is not defined on %s (a %s)", op, pv.name, cur.Type())) }
	switch {
	case cur.CanInt():
		a, b := cur.Int(), y.Int()
		if r, ok := integerOp(op, a, b); ok {
			cur.SetInt(r)
			return
		}
	case cur.CanUint():
		a, b := cur.Uint(), y.Uint()
		if r, ok := integerOp(op, a, b); ok {
			cur.SetUint(r)
			return
		}
	case cur.CanFloat():
		a, b := cur.Float(), y.Float()
		switch op {
		case "+":
			cur.SetFloat(a + b)
		case "-":
			cur.SetFloat(a - b)
		case "*":
			cur.SetFloat(a * b)
		case "/":
			cur.SetFloat(a / b)
		default:
			bad()
		}
		return
	case cur.Kind() == reflect.String && op == "+":
		cur.SetString(cur.String() + y.String())
		return
	}
	bad()
}

// integerOp is a op b for the operators of an integer op-assignment; ok is
// false for another operator.
func integerOp[T int64 | uint64](op string, a, b T) (r T, ok bool) {
	switch op {
	case "+":
		return a + b, true
	case "-":
		return a - b, true
	case "*":
		return a * b, true
	case "/", "%":
		if b == 0 {
			panic(&goRuntimeError{"runtime error: integer divide by zero"})
		}
		if op == "/" {
			return a / b, true
		}
		return a % b, true
	case "&":
		return a & b, true
	case "|":
		return a | b, true
	case "^":
		return a ^ b, true
	case "&^":
		return a &^ b, true
	case "<<":
		return a << b, true
	case ">>":
		return a >> b, true
	}
	return 0, false
}

var passPkgVars = pass{
	name:     "pkg-vars",
	bug:      "an assignment to a compiled package's variable (os.Args = x) is ignored or does not compile",
	file:     "yaegi_pkgvars.go",
	reads:    needSession,
	changes:  "assignments to compiled packages' variables",
	userOnly: true,
	run: func(c *cellRun) *CellError {
		c.e.rewritePkgVarAssigns(c.ps)
		return nil
	},
}
