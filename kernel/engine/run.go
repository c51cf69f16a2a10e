package engine

import (
	"bytes"
	"context"
	"fmt"
	"go/ast"
	"go/token"
	"log"
	"strconv"
	"strings"
	"time"

	"github.com/traefik/yaegi/interp"

	"github.com/seed43a1e1ab/gocl/kernel/cellctx"
	"github.com/seed43a1e1ab/gocl/kernel/cellmodel"
	"github.com/seed43a1e1ab/gocl/kernel/display"
)

// parsed is one chunk of a cell after parsing. Its source is the chunk
// wrapped in a file or a main function, with a /*line*/ directive so that
// every position reports the cell's own line and column, in a file named
// "<cell>/_.go" (yaegi keys imports by the base name "_.go").
type parsed struct {
	chunk
	src   string
	tfile *token.File
	file  *ast.File       // kindImport, kindDecl
	body  *ast.BlockStmt  // kindStmt
	part  *cellmodel.Part // the chunk in the cell's model, as parsed; nil for generated chunks
}

// node is the chunk's parsed code: the block of its statements, or the file
// of its imports or declarations; nil when it did not parse.
func (p *parsed) node() ast.Node {
	if p.body != nil {
		return p.body
	}
	if p.file != nil {
		return p.file
	}
	return nil
}

// text returns the source of node n as written in the cell.
func (p *parsed) text(n ast.Node) string {
	a, b := p.tfile.Offset(n.Pos()), p.tfile.Offset(n.End())
	if a < 0 || b > len(p.src) || a > b {
		return ""
	}
	return p.src[a:b]
}

// execute runs code as the cell called name; e.mu is held. A compile
// error on valid Go says that the limit is the interpreter's (triage.go).
func (e *Engine) execute(ctx context.Context, code string, sink Sink, name string) Result {
	r := e.executeCell(ctx, code, sink, name)
	again := e.reparse(name, code)          // split.go: parsed on demand, once for both
	r.Err = e.explainStmtVars(again, r.Err) // yaegi_stmtvars.go, before triage's more general words
	if err := e.triage(name, again, r.Err); err != nil {
		r.Err = err
	}
	return r
}

func (e *Engine) executeCell(ctx context.Context, code string, sink Sink, name string) Result {
	e.state.Lock()
	e.files[name] = code
	e.state.Unlock()
	e.current.Store(&name)

	ps, model, perr := e.parseCell(name, code) // split.go: the cell's model, parsed once
	if perr != nil {
		return Result{Err: e.syntaxError(name, perr)}
	}
	e.model.Store(model)
	if name != "gocl" {
		if err := e.checkLost(name, ps); err != nil { // replay.go
			return Result{Err: err}
		}
		e.noteDeclared(name, ps, model.Map)
	}
	c := e.newCellRun(name, ps)
	if err := c.runPasses(passes); err != nil { // passes.go
		return Result{Err: err}
	}
	ps, helpers := c.ps, c.helpers

	_, end := e.beginCellIO(ctx, sink)
	defer end()

	mainPos := renameMain(ps)
	var body cellBody
	for i, p := range ps {
		switch p.kind {
		case kindImport:
			if err := e.runImports(ctx, name, p); err != nil {
				return Result{Err: err}
			}
			e.replay.commit(p) // replay.go: imports take effect here
		case kindDecl:
			if len(p.file.Decls) == 0 {
				continue
			}
			if err := e.compileRun(ctx, name, p.file); err != nil {
				return Result{Err: e.locateTop(name, err, p.file.Decls[0].Pos())}
			}
			e.recordDecls(p)
			if p == helpers {
				e.cross.helpersCompiled(e.in.Eval)
			}
		case kindStmt:
			stmts := p.body.List
			var final *ast.ExprStmt
			if i == len(ps)-1 && len(stmts) > 0 {
				final, _ = stmts[len(stmts)-1].(*ast.ExprStmt)
				if final != nil {
					stmts = stmts[:len(stmts)-1]
				}
			}
			for _, st := range stmts {
				if err := e.addStmt(name, p, &body, st); err != nil {
					e.dropFailed(name, &body, -1)
					return Result{Err: err}
				}
			}
			if final != nil {
				if show := e.showCall(p, final.X, e.showType); show != nil {
					body.stmts = append(body.stmts, marker(len(body.pos), final.Pos()), show)
					body.pos = append(body.pos, final.Pos())
				} else if err := e.addStmt(name, p, &body, final); err != nil {
					e.dropFailed(name, &body, -1)
					return Result{Err: err}
				}
			}
		}
	}
	if mainPos.IsValid() {
		// As go run does: main runs once, after the cell's statements.
		body.stmts = append(body.stmts, marker(len(body.pos), mainPos), &ast.ExprStmt{X: &ast.CallExpr{
			Fun: &ast.Ident{NamePos: mainPos, Name: mainName}, Lparen: mainPos, Rparen: mainPos}})
		body.pos = append(body.pos, mainPos)
	}
	data, failedAt, err := e.runBody(ctx, name, &body)
	if err != nil {
		e.dropFailed(name, &body, failedAt)
		return Result{Err: err}
	}
	e.keepFresh(&body)
	for _, p := range ps {
		if p.kind == kindStmt {
			e.recordDecls(p)
		}
	}
	if c.user() {
		e.crossSession().Commit(c.cross)
	}
	return Result{Data: data}
}

// insertHelpers adds the method helpers to the cell: into its last
// declaration chunk, compiled with the types and functions it declares (so
// that those functions call this cell's helpers), or as a chunk of their
// own before the cell's statements, whose final expression is shown. It
// returns the chunk that holds them.
func insertHelpers(ps []*parsed, h *parsed) ([]*parsed, *parsed) {
	for i := len(ps) - 1; i >= 0; i-- {
		if ps[i].kind == kindDecl && ps[i].file != nil {
			ps[i].file.Decls = append(ps[i].file.Decls, h.file.Decls...)
			return ps, ps[i]
		}
	}
	at := 0
	for i, p := range ps {
		if p.kind != kindStmt {
			at = i + 1
		}
	}
	out := append([]*parsed{}, ps[:at]...)
	out = append(out, h)
	return append(out, ps[at:]...), h
}

// block wraps statements of p in a block positioned like p's body, which
// yaegi compiles in the global scope (as its REPL does).
func (e *Engine) block(p *parsed, stmts ...ast.Stmt) *ast.BlockStmt {
	return &ast.BlockStmt{Lbrace: p.body.Lbrace, List: stmts, Rbrace: p.body.Rbrace}
}

// compileRun compiles n, its go statements guarded (see gostmt.go), and runs
// it, converting failures to cell errors.
func (e *Engine) compileRun(ctx context.Context, name string, n ast.Node) *CellError {
	prog, err := e.compileGuarded(n)
	if err != nil {
		return e.compileError(name, err)
	}
	return e.run(ctx, name, prog)
}

// compileGuarded compiles n with its display calls rewritten for
// cell-defined types (see richcall.go) and its go statements guarded; when
// the rewritten calls do not compile, n compiles without them.
func (e *Engine) compileGuarded(n ast.Node) (*interp.Program, error) {
	if undo := e.rewriteRichCalls(n); undo != nil {
		if prog, err := e.compileGuardedGo(n); err == nil {
			return prog, nil
		}
		undo()
	}
	return e.compileGuardedGo(n)
}

// compileGuardedGo compiles n with its go statements guarded. When only the
// guarded form fails to compile (a form the rewrite cannot express), n
// compiles as written and a note on stderr says that its go statements are
// unguarded. A compile error of n itself is reported as the user wrote it.
func (e *Engine) compileGuardedGo(n ast.Node) (*interp.Program, error) {
	restore, usedAddr := e.guardGo(n, true)
	prog, err := e.compileAST(n)
	if err == nil || restore == nil {
		return prog, err
	}
	restore()
	if usedAddr {
		// A receiver taken by address was no struct (an interface, say).
		restore, _ = e.guardGo(n, false)
		if prog, err := e.compileAST(n); err == nil {
			return prog, nil
		}
		restore()
	}
	prog, err2 := e.compileAST(n)
	if err2 != nil {
		return nil, err2
	}
	line := 0
	ast.Inspect(n, func(n ast.Node) bool {
		if s, ok := n.(*ast.GoStmt); ok && line == 0 {
			_, line, _ = e.cellPos(s.Pos())
		}
		return line == 0
	})
	writeStderr(fmt.Sprintf("gocl: note: the go statement at line %d could not be guarded against panics (%v); it runs as written, "+
		"and a panic in that goroutine would stop the kernel. Bind its arguments to variables first, e.g. a, b := f(); go g(a, b)\n",
		line, err))
	return prog, nil
}

// testHookBeforeWait, when set by a test, runs after a statement has started
// and before run watches it: it stands for a loaded machine that is slow to
// schedule run, which is the window the interrupt races need.
var testHookBeforeWait func()

// run executes prog on its own goroutine so that an interrupt can stop it
// and Execute knows when it really stopped.
func (e *Engine) run(ctx context.Context, name string, prog *interp.Program) *CellError {
	if ctx.Err() != nil {
		// Interrupted while the previous statement was finishing: the
		// rest of the cell does not run.
		return interrupted("")
	}
	e.trace.reset()
	e.stopper.arm()
	done := make(chan struct{})
	var err error
	go cellctx.Run(func() { // a request's goroutine: interrupt.go
		defer close(done)
		defer func() {
			if r := recover(); r != nil {
				err = interp.Panic{Value: r}
			}
		}()
		_, err = e.execProgram(ctx, prog) // debugger.go: under JupyterLab's debugger once started
	})
	if testHookBeforeWait != nil {
		testHookBeforeWait()
	}
	select {
	case <-done:
		e.stopper.disarm()
		if err != nil {
			return e.runError(name, err)
		}
		return nil
	case <-ctx.Done():
	}
	e.stopper.stop()
	defer e.stopper.disarm()
	select {
	case <-done:
		return interrupted("")
	case <-time.After(stopGrace):
		e.busy = done
		return interrupted("The cell is still inside a compiled call that cannot be interrupted " +
			"(a binary package's blocking call or C code); the next cell waits for it to return.")
	}
}

// show evaluates the cell's final expression and returns its bundle. It tries
// the helpers for one, two and three results; an expression with no value
// (or that no helper takes) runs as a plain statement and shows nothing.
func (e *Engine) show(ctx context.Context, name string, p *parsed, final *ast.ExprStmt) (display.Bundle, *CellError) {
	restore, _ := e.guardGo(final, true)
	x := final.X
	for _, helper := range []string{"show1", "show2", "show3"} {
		call := &ast.CallExpr{
			Fun:    &ast.Ident{NamePos: x.Pos(), Name: helperPrefix + helper},
			Lparen: x.Pos(), Args: []ast.Expr{x}, Rparen: x.End(),
		}
		prog, err := e.compileAST(e.block(p, &ast.ExprStmt{X: call}))
		if err != nil {
			continue
		}
		if restore != nil {
			restore()
		}
		e.result.Store(nil)
		if err := e.run(ctx, name, prog); err != nil {
			return nil, e.locateTop(name, err, x.Pos())
		}
		if b := e.result.Load(); b != nil {
			return *b, nil
		}
		return nil, nil
	}
	if restore != nil {
		restore() // compileRun guards it again, with its fallback
	}
	return nil, e.locateTop(name, e.compileRun(ctx, name, e.block(p, final)), x.Pos())
}

// runImports imports what is not imported yet. Importing again a package
// under the same name does nothing; reusing a name for another package is an
// error, because yaegi cannot rebind it.
func (e *Engine) runImports(ctx context.Context, name string, p *parsed) *CellError {
	var keep []ast.Spec
	var gd *ast.GenDecl
	local := map[string]string{} // imported by this chunk
	for _, d := range p.file.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok {
			continue
		}
		gd = g
		for _, s := range g.Specs {
			spec := s.(*ast.ImportSpec)
			ipath, _ := strconv.Unquote(spec.Path.Value)
			if !e.avail[ipath] {
				return e.errorAt(name, "ImportError", importRefusal(ipath), spec.Pos(), nil)
			}
			alias := importName(ipath)
			if spec.Name != nil {
				alias = spec.Name.Name
			}
			if alias == "_" {
				continue
			}
			if local[alias] == ipath {
				return e.importedTwice(name, alias, spec) // yaegi_imports.go
			}
			e.state.Lock()
			old, seen := e.imports[alias]
			e.state.Unlock()
			if o, ok := local[alias]; ok {
				old, seen = o, true
			}
			if alias != "." {
				local[alias] = ipath
			}
			if seen && old == ipath {
				continue
			}
			if seen && alias != "." {
				return e.errorAt(name, "ImportError", fmt.Sprintf("%s is already imported as %q; import %q under another name, "+
					"e.g. import my%s %q", alias, old, ipath, alias, ipath), spec.Pos(), nil)
			}
			keep = append(keep, spec)
		}
	}
	if len(keep) == 0 || gd == nil {
		return nil
	}
	gd.Specs = keep
	p.file.Decls = []ast.Decl{gd}
	if err := e.compileRun(ctx, name, p.file); err != nil {
		return err
	}
	e.state.Lock()
	for _, s := range keep {
		spec := s.(*ast.ImportSpec)
		ipath, _ := strconv.Unquote(spec.Path.Value)
		alias := importName(ipath)
		if spec.Name != nil {
			alias = spec.Name.Name
		}
		if alias != "." {
			e.imports[alias] = ipath
		}
	}
	e.state.Unlock()
	return nil
}

// checkTypes refuses a type declaration that changes a type declared in an
// earlier cell: yaegi would silently keep the old definition. Declaring the
// same type again (re-running a cell) is dropped, so it is harmless.
func (e *Engine) checkTypes(name string, ps []*parsed) *CellError {
	e.state.Lock()
	types := make(map[string]string, len(e.types))
	for k, v := range e.types {
		types[k] = v
	}
	e.state.Unlock()
	e.state.Lock()
	methodTexts := make(map[string]string, len(e.methodTexts))
	for k, v := range e.methodTexts {
		methodTexts[k] = v
	}
	e.state.Unlock()
	for _, p := range ps {
		if p.kind != kindDecl {
			continue
		}
		for _, d := range p.file.Decls {
			// yaegi keeps the first declaration of a method: a later cell's
			// other body for it would never run.
			f, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			k := methodKey(f)
			if old, seen := methodTexts[k]; k != "" && seen && old != normalize(p.text(f)) {
				return e.errorAt(name, "CompileError", fmt.Sprintf("method %s was declared in an earlier cell, and the "+
					"interpreter keeps the first declaration of a method: this one would never run. Restart the kernel "+
					"to change it, or declare the type again under another name", k), f.Name.Pos(), nil)
			}
		}
		var decls []ast.Decl
		for _, d := range p.file.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.TYPE {
				decls = append(decls, d)
				continue
			}
			var specs []ast.Spec
			for _, s := range g.Specs {
				ts := s.(*ast.TypeSpec)
				norm := normalize(p.text(ts))
				old, seen := types[ts.Name.Name]
				if !seen {
					specs = append(specs, s)
					continue
				}
				if old != norm {
					return e.errorAt(name, "CompileError", fmt.Sprintf("type %s was declared in an earlier cell as "+
						"%q; the interpreter cannot change a declared type: give the new type another name, or restart "+
						"the kernel", ts.Name.Name, old), ts.Pos(), nil)
				}
			}
			if len(specs) > 0 {
				g.Specs = specs
				decls = append(decls, g)
			}
		}
		p.file.Decls = decls
	}
	return nil
}

func normalize(s string) string { return strings.Join(strings.Fields(s), " ") }

// yaegiFailed starts the error of a cell on which yaegi's compiler panicked.
const yaegiFailed = "the interpreter (yaegi) failed on this code"

// compileAST is yaegi's CompileAST, with its internal panics (yaegi v0.16.1
// panics on some valid cells, e.g. "nil type" for a top-level
// `v, ok := x.(T)`) turned into a compile error, so that a cell the
// interpreter cannot handle fails alone instead of stopping the kernel.
//
// yaegi raises some of those panics with log.Panic, which first writes the
// message to the standard logger: into the cell's stderr, dated, above the
// compile error that says the same. The logger's output is held during the
// compile, and that line dropped when the compile panicked with it.
func (e *Engine) compileAST(n ast.Node) (prog *interp.Program, err error) {
	var held bytes.Buffer // log serializes its writes, and SetOutput waits for them
	prev := log.Writer()
	log.SetOutput(&held)
	defer func() {
		r := recover()
		log.SetOutput(prev)
		out := held.Bytes()
		if r != nil {
			prog, err = nil, fmt.Errorf("%s: %v. yaegi v0.16.1 cannot compile some valid Go: range over a function, "+
				"generic code beyond simple calls, some composite literals of named types; write that part another way "+
				"(a loop calling the iterator with a yield function, a function for the concrete type), or compile it in "+
				"a cell that starts with //gocl:compile", yaegiFailed, r)
			out = dropLastLine(out, fmt.Sprint(r))
		}
		if len(out) > 0 {
			prev.Write(out) // what cells' goroutines logged meanwhile
		}
	}()
	e.rewriteCompiledAssign(n) // yaegi gap with compiled variables: compiled_yaegi.go
	return e.in.CompileAST(n)
}

// dropLastLine removes the last line of b when it ends with msg.
func dropLastLine(b []byte, msg string) []byte {
	body := bytes.TrimSuffix(b, []byte("\n"))
	start := bytes.LastIndexByte(body, '\n') + 1
	if !bytes.HasSuffix(body[start:], []byte(msg)) {
		return b
	}
	return b[:start]
}
