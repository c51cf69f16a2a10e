package engine

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"reflect"
	"strings"
	"sync/atomic"

	"github.com/seed43a1e1ab/gocl/internal/cellctx"
	"github.com/seed43a1e1ab/gocl/kernel/display"
)

// A cell's statements run as the body of one function, as main's body runs
// in a Go program: a defer runs once, when the cell ends; a := in an inner
// block shadows as Go does; and the temporaries of a statement live in that
// function's frame, so they are freed when the cell ends. (yaegi keeps every
// value that a statement in its global scope computes, in a slot of the
// global frame, until the interpreter is dropped: re-running a cell that made
// 100 MB grew the kernel by 100 MB each time.)
//
// The names that the cell's top-level statements declare stay defined for
// later cells, so they are package-level variables: before the body is
// compiled, each top-level declaration is declared in the global scope by a
// probe that is compiled but never run (its types come from the compiler, no
// expression is evaluated twice), and in the body the declaration becomes an
// assignment to that variable:
//
//	x := f()           →  global x (of f's result type);  body: x = f()
//	var n int          →  global n;                       body: n = *new(int)
//	v, ok := m[k]      →  globals v, ok;                   body: v, ok = m[k]
//
// A name that already holds a variable of the same type keeps that variable,
// so that re-running `x := make([]byte, 100<<20)` replaces the old slice (and
// frees it) instead of adding a slot that keeps it forever.

// probePrefix names the compile-only probe variables.
const probePrefix = helperPrefix + "p"

// topDecl is one name a top-level statement declares.
type topDecl struct {
	name  string
	probe string
}

// cellBody is the cell's statements made into one function body.
type cellBody struct {
	stmts []ast.Stmt      // the body, with markers
	pos   []token.Pos     // position of each top-level statement, by marker index
	fresh map[string]int  // names declared anew, by the index of their statement
	stale []reflect.Value // variables that a declaration of another type replaced
}

// stmtIndex is the top-level statement of the running cell that last started
// (set by the markers in its body), so that a panic is located at it.
var stmtIndex atomic.Int64

// markStmt is the marker every top-level statement of a body starts with.
// Once the cell is interrupted, the next statement does not start: the
// marker stops the body, whatever the interpreter's own stop has reached.
//
// Before each statement after the first, what the cell printed so far is
// delivered: a statement that kills the engine (a fault in C, a fatal error)
// then cannot take the earlier statements' output down with it, which would
// otherwise sit read from the capture pipe but not yet sent on.
func markStmt(i int) {
	if cellctx.Current().Err() != nil {
		panic(stopBody{})
	}
	if i > 0 {
		// The Go side only (C's stdio buffers flush when the cell ends, as
		// at a program's exit), and an unfinished stdout line stays held:
		// it may be the prompt of an input that follows.
		err := errors.Join(outStream.drainKeepingPrompt(drainTimeout), errOut.drain(drainTimeout))
		if err != nil {
			writeStderr(fmt.Sprintf("gocl: %v\n", err))
		}
	}
	stmtIndex.Store(int64(i))
}

// stopBody is the panic value with which a marker stops an interrupted
// cell's body.
type stopBody struct{}

// marker returns the statement __gocl_at(i).
func marker(i int, pos token.Pos) ast.Stmt {
	return &ast.ExprStmt{X: &ast.CallExpr{
		Fun:    &ast.Ident{NamePos: pos, Name: helperPrefix + "at"},
		Lparen: pos, Args: []ast.Expr{&ast.BasicLit{ValuePos: pos, Kind: token.INT, Value: fmt.Sprint(i)}}, Rparen: pos,
	}}
}

// addStmt appends a top-level statement of the cell to b: its declarations
// are declared globally first (see declareTop), and it enters the body as
// assignments.
func (e *Engine) addStmt(name string, p *parsed, b *cellBody, st ast.Stmt) *CellError {
	fresh, stale, err := e.declareTop(name, p, st)
	if err != nil {
		return err
	}
	b.stale = append(b.stale, stale...)
	for _, n := range fresh {
		if b.fresh == nil {
			b.fresh = map[string]int{}
		}
		b.fresh[n] = len(b.pos)
	}
	b.stmts = append(b.stmts, marker(len(b.pos), st.Pos()))
	b.pos = append(b.pos, st.Pos())
	isFresh := func(n string) bool {
		for _, f := range fresh {
			if f == n {
				return true
			}
		}
		return false
	}
	b.stmts = append(b.stmts, asAssign(st, isFresh))
	return nil
}

// asAssign turns a top-level declaration into the assignment the body runs;
// other statements come back unchanged.
// A `var x T` whose names are all fresh needs no statement: the new
// variables hold T's zero value already (and yaegi's *new(T) is invalid for
// some interface types).
func asAssign(st ast.Stmt, fresh func(string) bool) ast.Stmt {
	switch s := st.(type) {
	case *ast.AssignStmt:
		if s.Tok != token.DEFINE {
			return s
		}
		as := &ast.AssignStmt{Lhs: s.Lhs, TokPos: s.TokPos, Tok: token.ASSIGN, Rhs: s.Rhs}
		if len(s.Lhs) == 2 && len(s.Rhs) == 1 && isCommaOK(s.Rhs[0]) && hasBlank(s.Lhs) {
			// yaegi v0.16.1 gives the blank of a comma-ok assignment a
			// typed slot of its own, shared with the next such statement
			// (`_, ok = <-ch2` then fails with the type of an earlier
			// channel): locals of a block take both values instead.
			pos := s.Pos()
			tmp := []ast.Expr{&ast.Ident{NamePos: pos, Name: helperPrefix + "v"}, &ast.Ident{NamePos: pos, Name: helperPrefix + "ok"}}
			list := []ast.Stmt{&ast.AssignStmt{Lhs: tmp, TokPos: pos, Tok: token.DEFINE, Rhs: s.Rhs}}
			for i, l := range s.Lhs {
				// Nothing is assigned to _: yaegi accepts the unused
				// local, and an assignment to _ can corrupt a value.
				if id := l.(*ast.Ident); id.Name != "_" {
					list = append(list, &ast.AssignStmt{Lhs: []ast.Expr{id}, TokPos: pos, Tok: token.ASSIGN, Rhs: []ast.Expr{tmp[i]}})
				}
			}
			return &ast.BlockStmt{Lbrace: pos, List: list, Rbrace: s.End()}
		}
		return as
	case *ast.DeclStmt:
		g, ok := s.Decl.(*ast.GenDecl)
		if !ok || g.Tok != token.VAR {
			return s
		}
		var out []ast.Stmt
		for _, sp := range g.Specs {
			vs := sp.(*ast.ValueSpec)
			lhs := make([]ast.Expr, len(vs.Names))
			for i, n := range vs.Names {
				lhs[i] = n
			}
			rhs := vs.Values
			if len(rhs) == 0 && allFresh(vs.Names, fresh) {
				continue
			}
			if len(rhs) > 0 && isEmptyInterface(vs.Type) && len(rhs) == len(lhs) {
				// var b any = !x: yaegi fails to assign some untyped
				// values to an interface variable (SetBool on an interface
				// Value) unless they are converted first, as the declaration
				// does.
				// Only constants: converting a cell type's value to any
				// loses its methods in yaegi.
				conv := make([]ast.Expr, len(rhs))
				for i, v := range rhs {
					conv[i] = v
					if isConstExpr(v) {
						conv[i] = &ast.CallExpr{Fun: &ast.ParenExpr{Lparen: v.Pos(), X: vs.Type, Rparen: v.Pos()}, Lparen: v.Pos(), Args: []ast.Expr{v}, Rparen: v.End()}
					}
				}
				rhs = conv
			}
			if len(rhs) == 0 {
				// var x T: the variable may be one a previous run left
				// holding a value, so it is set to T's zero value.
				zero := &ast.StarExpr{Star: vs.Pos(), X: &ast.CallExpr{
					Fun: &ast.Ident{NamePos: vs.Pos(), Name: "new"}, Lparen: vs.Pos(), Args: []ast.Expr{vs.Type}, Rparen: vs.Pos()}}
				for range vs.Names {
					rhs = append(rhs, zero)
				}
			}
			out = append(out, &ast.AssignStmt{Lhs: lhs, TokPos: vs.Pos(), Tok: token.ASSIGN, Rhs: rhs})
		}
		if len(out) == 0 {
			return &ast.EmptyStmt{Semicolon: s.Pos(), Implicit: true}
		}
		if len(out) == 1 {
			return out[0]
		}
		return &ast.BlockStmt{Lbrace: s.Pos(), List: out, Rbrace: s.End()}
	}
	return st
}

// declareTop declares in the global scope the names that st, a top-level
// statement, declares, and returns them. A name that already holds a variable
// of the type st gives it stays that variable.
func (e *Engine) declareTop(name string, p *parsed, st ast.Stmt) ([]string, []reflect.Value, *CellError) {
	probes, decls := probeFor(st)
	if probes == nil {
		return nil, nil, nil
	}
	for i, probe := range probes {
		if err := e.compileOnly(name, p, probe); err != nil {
			if fixed, ok := e.probeIndexType(name, p, probe); ok {
				probes[i] = fixed
				continue
			}
			// Some forms compile in yaegi's global scope only as the
			// declaration itself (`var Get = pool.Get`): declared so, its
			// names are all new variables.
			if e.compileOnly(name, p, st) == nil {
				var fresh []string
				for _, d := range decls {
					fresh = append(fresh, d.name)
				}
				return fresh, nil, nil
			}
			return nil, nil, e.unprobe(err, decls)
		}
	}
	if err := e.resizeFrame(p); err != nil {
		return nil, nil, err
	}
	return e.bindProbes(name, p, decls)
}

// probeIndexType handles a probe `p := X` that yaegi v0.16.1 cannot
// compile in its global scope, as when X indexes a compiled package's named
// slice or map (cl.Platforms()[0].Devices()[0], sort.IntSlice{..}[0]:
// "constant definition loop", or a crash of its compiler): it works out X's
// type by reflection (exprType) and declares the probe with that type
// written out, `var p T`. It reports false when the type cannot be worked
// out or written in the cell's terms.
func (e *Engine) probeIndexType(name string, p *parsed, probe ast.Stmt) (ast.Stmt, bool) {
	as, ok := probe.(*ast.AssignStmt)
	if !ok || as.Tok != token.DEFINE || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
		return nil, false
	}
	ix := as.Rhs[0]
	id, _ := as.Lhs[0].(*ast.Ident)
	if id == nil {
		return nil, false
	}
	pos := as.Pos()
	elem, ok := e.exprType(ix)
	if !ok {
		return nil, false
	}
	typ, ok := typeExpr(elem, e.Scope(), pos)
	if !ok {
		return nil, false
	}
	decl := varDecl(pos, id, typ)
	if e.compileOnly(name, p, decl) != nil {
		return nil, false
	}
	return decl, true
}

// exprType works out the type of x, an expression over globals and
// compiled packages, from reflection alone: yaegi's compiler cannot type
// some of them in its global scope (an index of a compiled package's named
// slice: cl.Platforms()[0].Devices()[0]). It knows identifiers, package
// members, calls of one result, indexes, fields, methods, * and ().
func (e *Engine) exprType(x ast.Expr) (reflect.Type, bool) {
	if t, ok := e.reflectType(x); ok {
		return t, true
	}
	// What yaegi can type alone: a probe of x compiled, never run.
	pos := x.Pos()
	probe := &ast.Ident{NamePos: pos, Name: probePrefix + "x"}
	st := &ast.AssignStmt{Lhs: []ast.Expr{probe}, TokPos: pos, Tok: token.DEFINE, Rhs: []ast.Expr{x}}
	if _, err := e.compileAST(&ast.BlockStmt{Lbrace: pos, List: []ast.Stmt{st}, Rbrace: x.End()}); err != nil || e.resizeAt(pos) != nil {
		return nil, false
	}
	if v, ok := globals(e.in)[probe.Name]; ok && v.IsValid() {
		return v.Type(), true
	}
	return nil, false
}

// reflectType is exprType by reflection over the parts of x.
func (e *Engine) reflectType(x ast.Expr) (reflect.Type, bool) {
	switch x := x.(type) {
	case *ast.ParenExpr:
		return e.exprType(x.X)
	case *ast.Ident:
		if v, ok := globals(e.in)[x.Name]; ok && v.IsValid() {
			return v.Type(), true
		}
	case *ast.StarExpr:
		if t, ok := e.exprType(x.X); ok && t.Kind() == reflect.Pointer {
			return t.Elem(), true
		}
	case *ast.IndexExpr:
		t, ok := e.exprType(x.X)
		if !ok {
			return nil, false
		}
		if t.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.Array {
			t = t.Elem()
		}
		switch t.Kind() {
		case reflect.Slice, reflect.Array, reflect.Map:
			return t.Elem(), true
		case reflect.String:
			return reflect.TypeOf(byte(0)), true
		}
	case *ast.CallExpr:
		t, ok := e.exprType(x.Fun)
		if ok && t.Kind() == reflect.Func && t.NumOut() == 1 {
			return t.Out(0), true
		}
	case *ast.SelectorExpr:
		if pkg, ok := x.X.(*ast.Ident); ok {
			e.state.Lock()
			ipath, imported := e.imports[pkg.Name]
			e.state.Unlock()
			if _, global := globals(e.in)[pkg.Name]; imported && !global {
				v, ok := e.symbols[ipath][x.Sel.Name]
				if !ok || !v.IsValid() {
					return nil, false
				}
				if v.Kind() == reflect.Pointer && v.Type().Elem().Kind() != reflect.Func && !v.IsNil() && v.Elem().CanSet() {
					return v.Type().Elem(), true // a package variable
				}
				return v.Type(), true
			}
		}
		t, ok := e.exprType(x.X)
		if !ok {
			return nil, false
		}
		if m, ok := t.MethodByName(x.Sel.Name); ok {
			return methodValueType(m.Type), true
		}
		if t.Kind() != reflect.Pointer {
			if m, ok := reflect.PointerTo(t).MethodByName(x.Sel.Name); ok {
				return methodValueType(m.Type), true
			}
		}
		st := t
		if st.Kind() == reflect.Pointer {
			st = st.Elem()
		}
		if st.Kind() == reflect.Struct {
			if f, ok := st.FieldByName(x.Sel.Name); ok {
				return f.Type, true
			}
		}
	}
	return nil, false
}

// methodValueType drops the receiver from a method's func type.
func methodValueType(m reflect.Type) reflect.Type {
	in := make([]reflect.Type, 0, m.NumIn()-1)
	for i := 1; i < m.NumIn(); i++ {
		in = append(in, m.In(i))
	}
	out := make([]reflect.Type, m.NumOut())
	for i := range out {
		out[i] = m.Out(i)
	}
	return reflect.FuncOf(in, out, m.IsVariadic())
}

// resizeFrame makes the global frame hold every variable compiled so far
// (yaegi allocates them when it next executes a program), by executing an
// empty one.
func (e *Engine) resizeFrame(p *parsed) *CellError { return e.resizeAt(p.body.Lbrace) }

func (e *Engine) resizeAt(pos token.Pos) *CellError {
	prog, err := e.compileAST(&ast.BlockStmt{Lbrace: pos, Rbrace: pos})
	if err != nil {
		return simpleError("CompileError", err.Error())
	}
	if _, err := e.in.Execute(prog); err != nil {
		return simpleError("CompileError", err.Error())
	}
	return nil
}

// probeFor returns the probe statements of st, each to be compiled alone in
// the global scope (a block would make its variables local), and the names
// st declares; nil when st declares nothing at the top level.
func probeFor(st ast.Stmt) ([]ast.Stmt, []topDecl) {
	var decls []topDecl
	probeName := func(id *ast.Ident) *ast.Ident {
		if id.Name == "_" {
			return id
		}
		// The same few probe names serve every statement (each is read
		// right after its compile): unique ones would grow yaegi's global
		// scope, which Globals copies, by one name a statement forever.
		d := topDecl{name: id.Name, probe: fmt.Sprintf("%s%d", probePrefix, len(decls))}
		decls = append(decls, d)
		return &ast.Ident{NamePos: id.NamePos, Name: d.probe}
	}
	switch s := st.(type) {
	case *ast.AssignStmt:
		if s.Tok != token.DEFINE {
			return nil, nil
		}
		lhs := make([]ast.Expr, len(s.Lhs))
		for i, l := range s.Lhs {
			id, ok := l.(*ast.Ident)
			if !ok {
				return nil, nil // not valid Go: the body's compile says so
			}
			lhs[i] = probeName(id)
		}
		if len(lhs) == 2 && len(s.Rhs) == 1 && isCommaOK(s.Rhs[0]) {
			// yaegi cannot compile a comma-ok := in its global scope:
			// the value's probe is the single-valued form, ok a bool.
			var out []ast.Stmt
			pos := s.Pos()
			if id := lhs[0].(*ast.Ident); id.Name != "_" {
				out = append(out, &ast.AssignStmt{Lhs: []ast.Expr{id}, TokPos: s.TokPos, Tok: token.DEFINE, Rhs: s.Rhs})
			}
			if id := lhs[1].(*ast.Ident); id.Name != "_" {
				out = append(out, varDecl(pos, id, &ast.Ident{NamePos: pos, Name: "bool"}))
			}
			return out, decls
		}
		return []ast.Stmt{&ast.AssignStmt{Lhs: lhs, TokPos: s.TokPos, Tok: token.DEFINE, Rhs: s.Rhs}}, decls
	case *ast.DeclStmt:
		g, ok := s.Decl.(*ast.GenDecl)
		if !ok || g.Tok != token.VAR {
			return nil, nil
		}
		var out []ast.Stmt
		for _, sp := range g.Specs {
			vs := sp.(*ast.ValueSpec)
			names := make([]*ast.Ident, len(vs.Names))
			for i, n := range vs.Names {
				names[i] = probeName(n)
			}
			if vs.Type == nil && len(names) == 2 && len(vs.Values) == 1 && isCommaOK(vs.Values[0]) {
				pos := vs.Pos()
				if names[0].Name != "_" {
					out = append(out, &ast.AssignStmt{Lhs: []ast.Expr{names[0]}, TokPos: pos, Tok: token.DEFINE, Rhs: vs.Values})
				}
				if names[1].Name != "_" {
					out = append(out, varDecl(pos, names[1], &ast.Ident{NamePos: pos, Name: "bool"}))
				}
				continue
			}
			out = append(out, &ast.DeclStmt{Decl: &ast.GenDecl{TokPos: g.TokPos, Tok: token.VAR,
				Specs: []ast.Spec{&ast.ValueSpec{Names: names, Type: vs.Type, Values: vs.Values}}}})
		}
		if len(decls) == 0 {
			return nil, nil
		}
		return out, decls
	}
	return nil, nil
}

// isCommaOK reports whether x is a form that yields a value and a bool in a
// two-name assignment: a type assertion, a map index or a receive.
func isCommaOK(x ast.Expr) bool {
	switch x := x.(type) {
	case *ast.ParenExpr:
		return isCommaOK(x.X)
	case *ast.TypeAssertExpr:
		return x.Type != nil
	case *ast.IndexExpr:
		return true // a map index; a slice index is not valid Go here
	case *ast.UnaryExpr:
		return x.Op == token.ARROW
	}
	return false
}

// unprobe writes the user's names back into a compile error of a probe.
func (e *Engine) unprobe(err *CellError, decls []topDecl) *CellError {
	fix := func(s string) string {
		for _, d := range decls {
			s = strings.ReplaceAll(s, d.probe, d.name)
		}
		return s
	}
	err.Value = fix(err.Value)
	for i := range err.Traceback {
		err.Traceback[i] = fix(err.Traceback[i])
	}
	return err
}

// compileOnly compiles st in the global scope without running it: what it
// declares exists afterwards, holding nothing until the frame is resized.
func (e *Engine) compileOnly(name string, p *parsed, st ast.Stmt) *CellError {
	if _, err := e.compileAST(&ast.BlockStmt{Lbrace: st.Pos(), List: []ast.Stmt{st}, Rbrace: st.End()}); err != nil {
		return e.compileError(name, err)
	}
	return nil
}

// bindProbes gives each probed name its variable: the one it already has,
// when that has the probe's type, or a new one of that type. It runs once
// the frame holds the probes (after any Execute), and returns the old
// variables that a new one replaced, to be zeroed when the cell runs.
func (e *Engine) bindProbes(name string, p *parsed, decls []topDecl) (fresh []string, stale []reflect.Value, err *CellError) {
	g := globals(e.in)
	var declare []ast.Stmt
	pos := p.body.Lbrace
	for _, d := range decls {
		pv, ok := g[d.probe]
		if !ok || !pv.IsValid() {
			continue
		}
		if old, ok := g[d.name]; ok && old.IsValid() && old.Type() == pv.Type() && e.isVar(d.name) {
			if e.isDropped(d.name) {
				fresh = append(fresh, d.name) // a failed cell's: declared again now
			}
			continue
		}
		fresh = append(fresh, d.name)
		if old, ok := g[d.name]; ok && old.IsValid() && old.CanSet() && e.isVar(d.name) {
			stale = append(stale, old)
		}
		declare = append(declare, &ast.AssignStmt{
			Lhs: []ast.Expr{&ast.Ident{NamePos: pos, Name: d.name}}, TokPos: pos, Tok: token.DEFINE,
			Rhs: []ast.Expr{&ast.Ident{NamePos: pos, Name: d.probe}}})
	}
	for _, st := range declare {
		if err := e.compileOnly(name, p, st); err != nil {
			return nil, nil, err
		}
	}
	return fresh, stale, nil
}

// isVar reports whether name, a global, is a variable of the user's (not a
// constant, which an assignment cannot change).
func (e *Engine) isVar(name string) bool {
	e.state.Lock()
	defer e.state.Unlock()
	return e.decls[name].Kind != "const"
}

// funcLitCall is func() { body }() positioned at pos..end.
func funcLitCall(body []ast.Stmt, pos, end token.Pos) ast.Stmt {
	lit := &ast.FuncLit{
		Type: &ast.FuncType{Func: pos, Params: &ast.FieldList{Opening: pos, Closing: pos}},
		Body: &ast.BlockStmt{Lbrace: pos, List: body, Rbrace: end},
	}
	return &ast.ExprStmt{X: &ast.CallExpr{Fun: lit, Lparen: end, Rparen: end}}
}

// showCall returns the statement that shows x, the cell's final expression,
// in the body: the show helper whose arity fits x, found by compiling the call
// without running it. It returns nil when no helper takes
// x (a call with no result): then x runs as a plain statement.
func (e *Engine) showCall(p *parsed, x ast.Expr, typeID int) ast.Stmt {
	for _, helper := range []string{"show1", "show2", "show3"} {
		args := []ast.Expr{x}
		if helper == "show1" && typeID >= 0 {
			helper = "show1t" // a value of a cell's type (crossing.go)
			args = append(args, &ast.BasicLit{ValuePos: x.End(), Kind: token.INT, Value: fmt.Sprint(typeID)})
		}
		call := &ast.ExprStmt{X: &ast.CallExpr{
			Fun:    &ast.Ident{NamePos: x.Pos(), Name: helperPrefix + helper},
			Lparen: x.Pos(), Args: args, Rparen: x.End(),
		}}
		// In the global scope: a compile that fails inside a function
		// literal leaves yaegi's scopes broken for the next compile.
		if _, err := e.compileAST(e.block(p, call)); err == nil {
			return call
		}
	}
	return nil
}

// runBody compiles the cell's body as one function literal and runs it. A
// panic is located at the top-level statement that was running.
func (e *Engine) runBody(ctx context.Context, name string, b *cellBody) (display.Bundle, int, *CellError) {
	if len(b.stmts) == 0 {
		return nil, 0, nil
	}
	for _, v := range b.stale {
		v.Set(reflect.Zero(v.Type())) // what the replaced variable held is freed
	}
	pos, end := b.stmts[0].Pos(), b.stmts[len(b.stmts)-1].End()
	if hasGoStmt(b.stmts) {
		if err := e.resizeAt(pos); err != nil { // the go-statement guard reads the globals
			return nil, -1, err
		}
	}
	// A declared function, not a function literal: yaegi copies the whole
	// global frame into every closure it makes, which grows with the session.
	id := func(n string) *ast.Ident { return &ast.Ident{NamePos: pos, Name: n} }
	fn := &ast.FuncDecl{Name: id(bodyName), Type: &ast.FuncType{Func: pos, Params: &ast.FieldList{Opening: pos, Closing: pos}},
		Body: &ast.BlockStmt{Lbrace: pos, List: b.stmts, Rbrace: end}}
	rewriteDefers(fn)
	file := &ast.File{Package: pos, Name: id("main"), Decls: []ast.Decl{fn}}
	declProg, err := e.compileGuarded(file)
	if err != nil {
		return nil, -1, e.compileError(name, err)
	}
	if cerr := e.run(ctx, name, declProg); cerr != nil {
		return nil, -1, cerr
	}
	prog, err := e.compileAST(&ast.BlockStmt{Lbrace: pos, List: []ast.Stmt{&ast.ExprStmt{X: &ast.CallExpr{Fun: id(bodyName), Lparen: pos, Rparen: pos}}}, Rbrace: end})
	if err != nil {
		return nil, -1, e.compileError(name, err)
	}
	stmtIndex.Store(-1)
	e.result.Store(nil)
	if cerr := e.run(ctx, name, prog); cerr != nil {
		i := int(stmtIndex.Load())
		if i >= 0 && i < len(b.pos) {
			return nil, i, e.locateTop(name, cerr, b.pos[i])
		}
		return nil, 0, e.locateTop(name, cerr, pos)
	}
	if r := e.result.Load(); r != nil {
		return *r, 0, nil
	}
	return nil, 0, nil
}

// bodyName is the function a cell's body runs in.
const bodyName = helperPrefix + "body"

// hasGoStmt reports whether list holds a go statement.
func hasGoStmt(list []ast.Stmt) bool {
	found := false
	for _, st := range list {
		ast.Inspect(st, func(n ast.Node) bool {
			if _, ok := n.(*ast.GoStmt); ok {
				found = true
			}
			return !found
		})
	}
	return found
}

// mainName is what a cell's func main is renamed to: yaegi would run a
// function called main after every later cell.
const mainName = helperPrefix + "main"

// renameMain renames the cell's func main, and every use of the name main
// in the cell, to mainName, and returns the position of the declaration
// (token.NoPos when the cell declares no main).
func renameMain(ps []*parsed) token.Pos {
	var pos token.Pos
	visit := func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			if n.Recv == nil && n.Name.Name == "main" {
				pos = n.Pos()
			}
		case *ast.SelectorExpr:
			ast.Inspect(n.X, func(m ast.Node) bool { renameIdent(m); return true })
			return false
		}
		renameIdent(n)
		return true
	}
	for _, p := range ps {
		switch {
		case p.file != nil: // not its package clause, which wraps every chunk
			for _, d := range p.file.Decls {
				ast.Inspect(d, visit)
			}
		case p.body != nil:
			ast.Inspect(p.body, visit)
		}
	}
	return pos
}

func renameIdent(n ast.Node) {
	if id, ok := n.(*ast.Ident); ok && id.Name == "main" {
		id.Name = mainName
	}
}

// A cell that fails declares nothing new: the names that its top-level
// statements declared, and that it did not reach, are dropped. yaegi cannot
// forget a variable, so a dropped name stays in its scope, but a later cell
// that uses it before declaring it again gets the compile error Go would
// give, and Scope does not list it.

// dropFailed records the fresh names of a body that failed at statement
// failed (-1: before it ran) as dropped, and clears the others.
func (e *Engine) dropFailed(cell string, b *cellBody, failed int) {
	e.state.Lock()
	defer e.state.Unlock()
	for n, i := range b.fresh {
		if failed < 0 || i >= failed {
			e.dropped[n] = cell
			delete(e.decls, n)
		} else {
			delete(e.dropped, n)
		}
	}
}

// keepFresh clears the dropped mark of the names a body declared.
func (e *Engine) keepFresh(b *cellBody) {
	e.state.Lock()
	defer e.state.Unlock()
	for n := range b.fresh {
		delete(e.dropped, n)
	}
}

func (e *Engine) isDropped(name string) bool {
	e.state.Lock()
	defer e.state.Unlock()
	_, ok := e.dropped[name]
	return ok
}

// checkDropped refuses a cell that uses a dropped name without declaring
// it: the parser resolves the names a chunk declares itself, so an
// unresolved identifier refers to a global.
func (e *Engine) checkDropped(cell string, ps []*parsed) *CellError {
	e.state.Lock()
	dropped := make(map[string]string, len(e.dropped))
	for n, c := range e.dropped {
		dropped[n] = c
	}
	e.state.Unlock()
	if len(dropped) == 0 {
		return nil
	}
	var found *ast.Ident
	for _, p := range ps {
		var root ast.Node
		switch {
		case p.body != nil:
			root = p.body
		case p.file != nil:
			root = p.file
		default:
			continue
		}
		declared := map[string]bool{}
		if p.file != nil {
			for _, d := range p.file.Decls {
				if f, ok := d.(*ast.FuncDecl); ok && f.Recv == nil {
					declared[f.Name.Name] = true
				}
			}
		}
		ast.Inspect(root, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SelectorExpr:
				ast.Inspect(n.X, func(m ast.Node) bool {
					if id, ok := m.(*ast.Ident); ok && found == nil && id.Obj == nil && !declared[id.Name] && dropped[id.Name] != "" {
						found = id
					}
					return found == nil
				})
				return false
			case *ast.KeyValueExpr:
				ast.Inspect(n.Value, func(m ast.Node) bool {
					if id, ok := m.(*ast.Ident); ok && found == nil && id.Obj == nil && !declared[id.Name] && dropped[id.Name] != "" {
						found = id
					}
					return found == nil
				})
				return false
			case *ast.Ident:
				if found == nil && n.Obj == nil && !declared[n.Name] && dropped[n.Name] != "" {
					found = n
				}
			}
			return found == nil
		})
		if found != nil {
			return e.errorAt(cell, "CompileError", fmt.Sprintf("undefined: %s (%s declared it, but failed before that statement ran; "+
				"run that cell again, or declare %s here)", found.Name, cellLabel(dropped[found.Name]), found.Name), found.Pos(), nil)
		}
	}
	return nil
}

func hasBlank(xs []ast.Expr) bool {
	for _, x := range xs {
		if id, ok := x.(*ast.Ident); ok && id.Name == "_" {
			return true
		}
	}
	return false
}

func allFresh(names []*ast.Ident, fresh func(string) bool) bool {
	for _, n := range names {
		if n.Name != "_" && !fresh(n.Name) {
			return false
		}
	}
	return true
}

// isEmptyInterface reports whether t is written any or interface{}.
func isEmptyInterface(t ast.Expr) bool {
	switch t := t.(type) {
	case *ast.Ident:
		return t.Name == "any"
	case *ast.InterfaceType:
		return t.Methods == nil || len(t.Methods.List) == 0
	}
	return false
}

// isConstExpr reports whether x is built of literals and operators alone.
func isConstExpr(x ast.Expr) bool {
	switch x := x.(type) {
	case *ast.BasicLit:
		return true
	case *ast.Ident:
		return x.Name == "true" || x.Name == "false"
	case *ast.ParenExpr:
		return isConstExpr(x.X)
	case *ast.UnaryExpr:
		return x.Op != token.ARROW && x.Op != token.AND && isConstExpr(x.X)
	case *ast.BinaryExpr:
		return isConstExpr(x.X) && isConstExpr(x.Y)
	}
	return false
}
