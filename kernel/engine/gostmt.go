package engine

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
)

// A panic in a goroutine that a cell started would end the kernel: yaegi
// runs the goroutine's function under its own recover, logs the frame and
// panics again, and nothing above it recovers. So before yaegi sees a cell,
// every go statement in it (at top level and in every function body) is
// rewritten to recover in the new goroutine and report the panic (see
// goPanic):
//
//	go func(x int) { ... }(i)   →   go func(x int) { defer guard(); ... }(i)
//
//	go f(a, g())                →   {
//	                                    __gocl_go_a1 := g()
//	                                    go func() { defer guard(); f(a, __gocl_go_a1) }()
//	                                }
//
// As in Go, the function value and the arguments are evaluated by the
// goroutine that runs the go statement: each is bound to a fresh variable of
// a block (yaegi makes a fresh variable at each execution of a block, loops
// included), except what cannot change before the goroutine starts and must
// keep its untyped or generic nature: literals, constants, functions declared
// by name, builtins, func literals, and members of imported packages.
//
// Go 1.22 made the variables a for statement declares per iteration; yaegi
// keeps one variable for the whole loop, so goroutines and closures started
// in a loop all saw its last value. So the body of such a loop starts with
// a copy, __gocl_go_i1 := i, and uses the copy instead of i. (Not i := i:
// in a cell's top-level statements yaegi confuses the two.) A three-clause
// loop whose body changes its variable keeps the shared one, as a copy
// would hide the change from the loop's post statement.
//
// A go statement that the rewrite cannot express (a multi-value call as the
// sole argument, an untyped shift...) fails to compile once rewritten; the
// statement then runs as written, without the guard, with a note on stderr.

// gensym prefixes the names of the rewrite's variables.
const gensym = helperPrefix + "go_"

// builtins may be called in a go statement but are not values.
var builtins = map[string]bool{
	"append": true, "cap": true, "clear": true, "close": true, "complex": true, "copy": true,
	"delete": true, "imag": true, "len": true, "make": true, "max": true, "min": true,
	"new": true, "panic": true, "print": true, "println": true, "real": true, "recover": true,
}

// guard is one rewrite of a top-level node.
type guard struct {
	e        *Engine
	fset     *token.FileSet
	addr     bool // bind receivers that hold struct values by address
	usedAddr bool
	mine     map[*ast.GoStmt]bool // go statements the rewrite made
	undo     []func()
	count    int
}

// guardGo rewrites in place the go statements inside n, as described above.
// It returns a function that restores n, or nil when n has none. With addr,
// a method's receiver that seems to be a variable holding a struct (see
// valueVar) is bound by address; usedAddr tells whether that happened, so
// that a caller whose compile failed can try again without.
func (e *Engine) guardGo(n ast.Node, addr bool) (restore func(), usedAddr bool) {
	g := &guard{e: e, fset: e.in.FileSet(), addr: addr, mine: map[*ast.GoStmt]bool{}}
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BlockStmt:
			g.list(n.List)
		case *ast.CaseClause:
			g.list(n.Body)
		case *ast.CommClause:
			g.list(n.Body)
		case *ast.ForStmt:
			if as, ok := n.Init.(*ast.AssignStmt); ok && as.Tok == token.DEFINE {
				g.perIteration(n.Body, as.Lhs, true)
			}
		case *ast.RangeStmt:
			if n.Tok == token.DEFINE {
				g.perIteration(n.Body, []ast.Expr{n.Key, n.Value}, false)
			}
		case *ast.LabeledStmt:
			if s, ok := n.Stmt.(*ast.GoStmt); ok && !g.mine[s] {
				n.Stmt = g.rewrite(s)
				g.undo = append(g.undo, func() { n.Stmt = s })
			}
		}
		return true
	})
	if len(g.undo) == 0 {
		return nil, false
	}
	return func() {
		for i := len(g.undo) - 1; i >= 0; i-- {
			g.undo[i]()
		}
	}, g.usedAddr
}

// list rewrites the go statements of a statement list in place. ast.Inspect
// then walks the new statements, so go statements inside them (in a func
// literal, say) are rewritten too.
func (g *guard) list(stmts []ast.Stmt) {
	for i, s := range stmts {
		gs, ok := s.(*ast.GoStmt)
		if !ok || g.mine[gs] {
			continue
		}
		stmts[i] = g.rewrite(gs)
		g.undo = append(g.undo, func() { stmts[i] = gs })
	}
}

// rewrite returns the guarded form of s, sharing s's expressions.
func (g *guard) rewrite(s *ast.GoStmt) ast.Stmt {
	pos := s.Go
	call := s.Call
	if lit, ok := ast.Unparen(call.Fun).(*ast.FuncLit); ok {
		body := &ast.BlockStmt{Lbrace: lit.Body.Lbrace, Rbrace: lit.Body.Rbrace,
			List: append([]ast.Stmt{g.deferGuard(pos)}, lit.Body.List...)}
		fn := &ast.FuncLit{Type: lit.Type, Body: body}
		return g.goStmt(pos, &ast.CallExpr{Fun: fn, Lparen: call.Lparen, Args: call.Args, Ellipsis: call.Ellipsis, Rparen: call.Rparen})
	}
	var binds []ast.Stmt
	bind := func(x ast.Expr, what string) ast.Expr {
		g.count++
		name := fmt.Sprintf("%s%s%d", gensym, what, g.count)
		binds = append(binds, &ast.AssignStmt{
			Lhs:    []ast.Expr{&ast.Ident{NamePos: x.Pos(), Name: name}},
			TokPos: x.Pos(), Tok: token.DEFINE, Rhs: []ast.Expr{x},
		})
		return &ast.Ident{NamePos: x.Pos(), Name: name}
	}
	fn := call.Fun
	switch sel, isSel := ast.Unparen(fn).(*ast.SelectorExpr); {
	case g.stableFunc(fn):
	case isSel:
		// A method call: bind the receiver, not the method value (yaegi
		// reads a method value's receiver when it is called). A variable
		// that holds a struct value is bound by address, as Go takes it
		// for a pointer method.
		recv := sel.X
		if g.addr && g.valueVar(recv) {
			g.usedAddr = true
			recv = &ast.UnaryExpr{OpPos: recv.Pos(), Op: token.AND, X: recv}
		}
		fn = &ast.SelectorExpr{X: bind(recv, "r"), Sel: sel.Sel}
	default:
		fn = bind(fn, "f")
	}
	args := make([]ast.Expr, len(call.Args))
	for i, a := range call.Args {
		if g.stable(a) {
			args[i] = a
		} else {
			args[i] = bind(a, "a")
		}
	}
	inner := &ast.CallExpr{Fun: fn, Lparen: call.Lparen, Args: args, Ellipsis: call.Ellipsis, Rparen: call.Rparen}
	lit := &ast.FuncLit{
		Type: &ast.FuncType{Func: pos, Params: &ast.FieldList{Opening: pos, Closing: pos}},
		Body: &ast.BlockStmt{Lbrace: pos, Rbrace: s.End(), List: []ast.Stmt{g.deferGuard(pos), &ast.ExprStmt{X: inner}}},
	}
	gs := g.goStmt(pos, &ast.CallExpr{Fun: lit, Lparen: pos, Rparen: pos})
	if len(binds) == 0 {
		return gs
	}
	return &ast.BlockStmt{Lbrace: pos, List: append(binds, gs), Rbrace: s.End()}
}

func (g *guard) goStmt(pos token.Pos, call *ast.CallExpr) *ast.GoStmt {
	s := &ast.GoStmt{Go: pos, Call: call}
	g.mine[s] = true
	return s
}

// deferGuard is
//
//	defer func() { __gocl_hook.GoPanic("cell3", line, col, recover()) }()
//
// recover must be called by a func literal declared in the goroutine's
// function: yaegi's recover reads the frame that encloses the literal.
// Everything else happens in compiled code, which cannot fail on an odd
// panic value.
func (g *guard) deferGuard(pos token.Pos) ast.Stmt {
	cell, line, col := g.e.cellPos(pos) // split.go: the cell's model
	report := &ast.CallExpr{
		Fun: &ast.SelectorExpr{X: &ast.Ident{NamePos: pos, Name: helperPrefix + "hook"}, Sel: &ast.Ident{NamePos: pos, Name: "GoPanic"}},
		Args: []ast.Expr{
			&ast.BasicLit{ValuePos: pos, Kind: token.STRING, Value: strconv.Quote(cell)},
			&ast.BasicLit{ValuePos: pos, Kind: token.INT, Value: strconv.Itoa(line)},
			&ast.BasicLit{ValuePos: pos, Kind: token.INT, Value: strconv.Itoa(col)},
			&ast.CallExpr{Fun: &ast.Ident{NamePos: pos, Name: "recover"}, Lparen: pos, Rparen: pos},
		},
		Lparen: pos, Rparen: pos,
	}
	lit := &ast.FuncLit{
		Type: &ast.FuncType{Func: pos, Params: &ast.FieldList{Opening: pos, Closing: pos}},
		Body: &ast.BlockStmt{Lbrace: pos, Rbrace: pos, List: []ast.Stmt{&ast.ExprStmt{X: report}}},
	}
	return &ast.DeferStmt{Defer: pos, Call: &ast.CallExpr{Fun: lit, Lparen: pos, Rparen: pos}}
}

// stableFunc reports whether the function of a go statement's call can be
// named inside the new goroutine rather than bound: a function or builtin
// named by its identifier, a member of an imported package, or an
// instantiation of a generic function.
func (g *guard) stableFunc(x ast.Expr) bool {
	switch x := x.(type) {
	case *ast.Ident:
		return !g.isVar(x)
	case *ast.SelectorExpr:
		// pkg.F, or a method expression T.M
		return g.isPackage(x.X) || g.isType(x.X)
	case *ast.IndexExpr:
		return g.stableFunc(x.X) && g.isTypeArg(x.Index)
	case *ast.IndexListExpr:
		return g.stableFunc(x.X)
	case *ast.ParenExpr:
		return g.stableFunc(x.X)
	}
	return false
}

// isTypeArg tells a type argument from an index: x[i] with x a function
// value in a slice or map is no instantiation.
func (g *guard) isTypeArg(x ast.Expr) bool {
	switch x := x.(type) {
	case *ast.Ident:
		if x.Obj != nil {
			return x.Obj.Kind == ast.Typ
		}
		return !g.isVar(x) && !g.isConst(x)
	case *ast.SelectorExpr:
		return g.isPackage(x.X)
	case *ast.StarExpr, *ast.ArrayType, *ast.MapType, *ast.ChanType, *ast.FuncType, *ast.InterfaceType, *ast.StructType:
		return true
	}
	return false
}

// stable reports whether an argument needs no binding: its value cannot
// change before the goroutine starts, and binding it with := could change
// its type (an untyped constant) or is impossible (a generic function).
func (g *guard) stable(x ast.Expr) bool {
	switch x := x.(type) {
	case *ast.BasicLit, *ast.FuncLit:
		return true
	case *ast.Ident:
		return !g.isVar(x)
	case *ast.SelectorExpr:
		return g.isPackage(x.X)
	case *ast.ParenExpr:
		return g.stable(x.X)
	case *ast.UnaryExpr:
		return x.Op != token.ARROW && x.Op != token.AND && g.stable(x.X)
	case *ast.BinaryExpr:
		return g.stable(x.X) && g.stable(x.Y)
	}
	return false
}

// isVar reports whether id names a variable: one declared in this chunk
// (the parser resolved it) or a global of an earlier statement or cell.
func (g *guard) isVar(id *ast.Ident) bool {
	if id.Obj != nil {
		return id.Obj.Kind == ast.Var
	}
	if builtins[id.Name] || id.Name == "nil" || id.Name == "true" || id.Name == "false" || id.Name == "iota" {
		return false
	}
	g.e.state.Lock()
	sym, ok := g.e.decls[id.Name]
	g.e.state.Unlock()
	if ok {
		return sym.Kind == "var"
	}
	// Not a known declaration: a global the engine did not record is still
	// a variable; anything else (a dot-imported name) is stable.
	_, global := globals(g.e.in)[id.Name]
	return global
}

func (g *guard) isConst(id *ast.Ident) bool {
	if id.Obj != nil {
		return id.Obj.Kind == ast.Con
	}
	g.e.state.Lock()
	defer g.e.state.Unlock()
	return g.e.decls[id.Name].Kind == "const"
}

// isPackage reports whether x names an imported package (not shadowed).
func (g *guard) isPackage(x ast.Expr) bool {
	id, ok := x.(*ast.Ident)
	if !ok || id.Obj != nil {
		return false
	}
	g.e.state.Lock()
	defer g.e.state.Unlock()
	_, imported := g.e.imports[id.Name]
	_, declared := g.e.decls[id.Name]
	return imported && !declared
}

// isType reports whether x names a type declared in a cell.
func (g *guard) isType(x ast.Expr) bool {
	id, ok := x.(*ast.Ident)
	if !ok {
		return false
	}
	if id.Obj != nil {
		return id.Obj.Kind == ast.Typ
	}
	g.e.state.Lock()
	defer g.e.state.Unlock()
	return g.e.decls[id.Name].Kind == "type"
}

// valueVar reports whether x is a variable that seems to hold a struct value
// rather than a pointer, an interface or a map: one declared with a
// composite literal (x := T{...}) or with a named type (var x T, a
// parameter x T). Go calls a pointer method of such a variable on its
// address. A wrong guess (T is an interface) fails to compile, and the
// caller rewrites again without addresses.
func (g *guard) valueVar(x ast.Expr) bool {
	id, ok := x.(*ast.Ident)
	if !ok {
		return false
	}
	var decl any
	if id.Obj != nil {
		if id.Obj.Kind != ast.Var {
			return false
		}
		decl = id.Obj.Decl
	} else {
		g.e.state.Lock()
		sym, ok := g.e.decls[id.Name]
		g.e.state.Unlock()
		if !ok || sym.Kind != "var" {
			return false
		}
		f, err := parser.ParseFile(token.NewFileSet(), "", "package p; func _() {"+sym.Decl+"\n}", parser.AllErrors)
		if err != nil || len(f.Decls) == 0 {
			return false
		}
		body := f.Decls[0].(*ast.FuncDecl).Body
		if len(body.List) == 0 {
			return false
		}
		switch s := body.List[0].(type) {
		case *ast.AssignStmt:
			decl = s
		case *ast.DeclStmt:
			if gd, ok := s.Decl.(*ast.GenDecl); ok && len(gd.Specs) > 0 {
				decl = gd.Specs[0]
			}
		}
	}
	valueType := func(t ast.Expr) bool {
		switch t := ast.Unparen(t).(type) {
		case *ast.Ident:
			return !builtinType[t.Name]
		case *ast.SelectorExpr, *ast.IndexExpr, *ast.IndexListExpr, *ast.StructType, *ast.ArrayType:
			return true
		}
		return false
	}
	valueExpr := func(v ast.Expr) bool {
		c, ok := ast.Unparen(v).(*ast.CompositeLit)
		return ok && c.Type != nil && valueType(c.Type)
	}
	switch d := decl.(type) {
	case *ast.ValueSpec:
		if d.Type != nil {
			return valueType(d.Type)
		}
		for i, n := range d.Names {
			if n.Name == id.Name && i < len(d.Values) && len(d.Names) == len(d.Values) {
				return valueExpr(d.Values[i])
			}
		}
	case *ast.AssignStmt:
		if len(d.Lhs) != len(d.Rhs) {
			return false
		}
		for i, l := range d.Lhs {
			if l, ok := l.(*ast.Ident); ok && l.Name == id.Name {
				return valueExpr(d.Rhs[i])
			}
		}
	case *ast.Field:
		return valueType(d.Type)
	}
	return false
}

// builtinType are the predeclared types, none of which has methods (error
// is an interface).
var builtinType = map[string]bool{
	"any": true, "bool": true, "byte": true, "complex64": true, "complex128": true, "error": true,
	"float32": true, "float64": true, "int": true, "int8": true, "int16": true, "int32": true, "int64": true,
	"rune": true, "string": true, "uint": true, "uint8": true, "uint16": true, "uint32": true, "uint64": true,
	"uintptr": true, "comparable": true,
}

// perIteration gives each iteration of body its own copy of the loop
// variables vars (see above). A three-clause loop (mayStep) whose body
// changes a variable keeps that one shared.
func (g *guard) perIteration(body *ast.BlockStmt, vars []ast.Expr, mayStep bool) {
	var lhs, rhs []ast.Expr
	for _, v := range vars {
		id, ok := v.(*ast.Ident)
		if !ok || id.Name == "_" || id.Obj == nil {
			continue
		}
		obj := id.Obj
		if mayStep && assigns(body, obj) {
			continue
		}
		g.count++
		fresh := fmt.Sprintf("%si%d", gensym, g.count)
		fields := g.fieldKeys(body) // field names the parser resolved to the variable: gostmt_keys.go
		ast.Inspect(body, func(n ast.Node) bool {
			if ref, ok := n.(*ast.Ident); ok && ref.Obj == obj && !fields[ref] {
				old := ref.Name
				ref.Name = fresh
				g.undo = append(g.undo, func() { ref.Name = old })
			}
			return true
		})
		lhs = append(lhs, &ast.Ident{NamePos: body.Lbrace, Name: fresh, Obj: obj})
		rhs = append(rhs, &ast.Ident{NamePos: body.Lbrace, Name: id.Name, Obj: obj})
	}
	if len(lhs) == 0 {
		return
	}
	old := body.List
	cp := &ast.AssignStmt{Lhs: lhs, TokPos: body.Lbrace, Tok: token.DEFINE, Rhs: rhs}
	body.List = append([]ast.Stmt{cp}, old...)
	g.undo = append(g.undo, func() { body.List = old })
}

// assigns reports whether n may change the variable obj: an assignment, an
// increment, or taking its address.
func assigns(n ast.Node, obj *ast.Object) bool {
	is := func(x ast.Expr) bool {
		id, ok := ast.Unparen(x).(*ast.Ident)
		return ok && id.Obj == obj
	}
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				found = found || is(l)
			}
		case *ast.IncDecStmt:
			found = found || is(n.X)
		case *ast.UnaryExpr:
			found = found || n.Op == token.AND && is(n.X)
		case *ast.RangeStmt:
			found = found || is(n.Key) || is(n.Value)
		}
		return !found
	})
	return found
}
