package engine

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"reflect"
	"sync/atomic"

	"github.com/seed43a1e1ab/gocl/kernel/cellctx"
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
	isVar := func(n string) bool { // a variable: this cell's statements' or an earlier cell's
		_, ok := b.fresh[n]
		return ok || e.isKnownVar(n)
	}
	b.stmts = append(b.stmts, asAssign(st, isFresh, isVar))
	return nil
}

// asAssign turns a top-level declaration into the assignment the body runs;
// other statements come back unchanged.
// A `var x T` whose names are all fresh needs no statement: the new
// variables hold T's zero value already (and yaegi's *new(T) is invalid for
// some interface types).
func asAssign(st ast.Stmt, fresh, isVar func(string) bool) ast.Stmt {
	switch s := st.(type) {
	case *ast.AssignStmt:
		if s.Tok != token.DEFINE {
			if b := parallelAssign(s.Pos(), s.End(), s.Lhs, s.Rhs, nil, isVar); s.Tok == token.ASSIGN && b != nil {
				return b // yaegi_parallel.go
			}
			return s
		}
		if b := parallelAssign(s.Pos(), s.End(), s.Lhs, s.Rhs, nil, isVar); b != nil {
			return b // yaegi_parallel.go
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
			if vs.Type != nil {
				if b := parallelAssign(vs.Pos(), vs.End(), lhs, rhs, vs.Type, isVar); b != nil {
					out = append(out, b) // yaegi_parallel.go
					continue
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
	for _, helper := range e.cross.showOrder(x) { // the type check's choice first (crossing_rewrite.go)
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

// A cell that fails declares nothing new: the names that its top-level
// statements declared, and that it did not reach, are dropped. yaegi cannot
// forget a variable, so a dropped name stays in its scope, but a later cell
// that uses it before declaring it again gets the compile error Go would
// give, and Scope does not list it.
