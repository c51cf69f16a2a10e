package engine

import (
	"context"
	"errors"
	"fmt"
	"go/parser"
	"path"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/traefik/yaegi/interp"

	"github.com/seed43a1e1ab/gocl/kernel/compiled"
	"github.com/seed43a1e1ab/gocl/kernel/compiled/rt"
)

// Compiled cells (first line //gocl:compile) are built by package compiled
// and loaded as plugins; this file joins them to the interpreter: their
// symbols are imported with a dot into the cells' scope, so later cells use
// the names as if declared there.

// builders holds each engine's compiled-cell builder, made at its first
// compiled cell.
var builders sync.Map // *Engine -> *compiled.Builder

func (e *Engine) builder() *compiled.Builder {
	if b, ok := builders.Load(e); ok {
		return b.(*compiled.Builder)
	}
	b, _ := builders.LoadOrStore(e, compiled.NewBuilder(nil))
	return b.(*compiled.Builder)
}

// closeCompiled removes the engine's build directory; what it loaded stays.
func (e *Engine) closeCompiled() {
	if b, ok := builders.LoadAndDelete(e); ok {
		b.(*compiled.Builder).Close()
	}
}

// compiledBuilder returns the builder if a compiled cell ran, else nil.
func (e *Engine) compiledBuilder() *compiled.Builder {
	if b, ok := builders.Load(e); ok {
		return b.(*compiled.Builder)
	}
	return nil
}

// executeCompiled builds the compiled cell code, called name, loads it and
// imports its names into the interpreter; e.mu is held.
func (e *Engine) executeCompiled(ctx context.Context, code string, sink Sink, name string) Result {
	e.state.Lock()
	e.files[name] = code
	e.state.Unlock()
	e.current.Store(&name)

	req, end := e.beginCellIO(ctx, sink)
	defer end()

	l, err := e.builder().Build(ctx, name, code)
	if err != nil {
		return Result{Err: e.compiledError(ctx, name, err)}
	}
	key := l.Path + "/" + path.Base(l.Path)
	if err := e.in.Use(interp.Exports{key: l.Symbols}); err != nil {
		return Result{Err: simpleError("LoadError", "the compiled cell was built but its names could not be given to the interpreter: "+err.Error())}
	}
	e.avail[l.Path] = true
	f, err := parser.ParseFile(e.in.FileSet(), "_.go", "package main; import . "+strconv.Quote(l.Path), 0)
	if err == nil {
		var prog *interp.Program
		if prog, err = e.compileAST(f); err == nil {
			_, err = e.in.Execute(prog)
		}
	}
	if err != nil {
		return Result{Err: simpleError("LoadError", "the compiled cell was built but the interpreter could not import its names: "+err.Error())}
	}

	names := make([]string, len(l.Decls))
	var vars []string
	for i, d := range l.Decls {
		names[i] = d.Name
		if d.Kind == "var" {
			vars = append(vars, d.Name)
		}
	}
	e.noteCompiledVars(l.Symbols, names)
	e.noteCompiled(name, code, names, vars) // replay.go

	var replaced []string
	e.state.Lock()
	for _, d := range l.Decls {
		if old, ok := e.decls[d.Name]; ok && !strings.HasSuffix(old.Decl, compiledMark) {
			replaced = append(replaced, d.Name+" (interpreted)")
		}
		sym := Symbol{Kind: d.Kind, Decl: d.Text + compiledMark}
		if d.Kind == "var" || d.Kind == "const" {
			sym.Value = l.Symbols[d.Name]
		}
		e.decls[d.Name] = sym
		delete(e.types, d.Name)
		if d.Kind == "type" {
			// An interpreted cell cannot change it (see checkTypes); the
			// same declaration again is harmless.
			e.types[d.Name] = normalize(d.Spec)
		}
	}
	e.state.Unlock()
	replaced = append(replaced, l.Replaced...)

	_ = flushAll(drainTimeout)
	var notes []string
	if len(replaced) > 0 {
		notes = append(notes, "replaced "+strings.Join(replaced, ", ")+": later cells use this cell's declarations")
	}
	for _, m := range l.Modules {
		notes = append(notes, fmt.Sprintf("module %s (pinned in %s)", m, l.PinFile))
	}
	if len(notes) > 0 {
		req.Stream("stdout", strings.Join(notes, "\n")+"\n")
	}
	return Result{}
}

// compiledMark ends the Decl of a Symbol that a compiled cell declared.
const compiledMark = " // compiled (//gocl:compile)"

// compiledError turns a failed build or load into the cell's error.
func (e *Engine) compiledError(ctx context.Context, name string, err error) *CellError {
	var ce *compiled.CompileError
	var p *rt.Panic
	switch {
	case ctx.Err() != nil:
		return interrupted("The compiled cell's build was stopped; nothing of it was loaded.")
	case errors.As(err, &ce) && len(ce.Diags) > 0:
		d := ce.Diags[0]
		msg := d.Msg + e.undefinedHint(d.Msg)
		if strings.Contains(msg, "cannot find module providing package") || strings.Contains(msg, "GOPROXY") {
			msg += " (a compiled cell's modules come through the Go module proxy, GOPROXY, the first time; " +
				"then they are pinned in " + compiled.PinFile + " beside the notebook)"
		}
		tb := []string{"CompileError: " + msg}
		tb = append(tb, e.where(name, d.Cell, d.Line, d.Col, "")...)
		for _, more := range ce.Diags[1:] {
			tb = append(tb, fmt.Sprintf("  also line %d, column %d: %s", more.Line, more.Col, more.Msg+e.undefinedHint(more.Msg)))
		}
		return &CellError{Name: "CompileError", Value: msg, Traceback: tb}
	case errors.As(err, &p):
		lines := strings.Split(p.Error(), "\n")
		ce := &CellError{Name: p.ErrorName(), Value: lines[0] + " (while initializing the compiled cell)",
			Traceback: append([]string{p.ErrorName() + ": " + lines[0]}, lines[1:]...)}
		e.expandFrames(ce)
		return ce
	case errors.Is(err, compiled.ErrNoToolchain):
		return simpleError("ToolchainError", err.Error())
	}
	return simpleError("BuildError", err.Error())
}

var undefinedRE = regexp.MustCompile(`^undefined: (\w+)$`)

// undefinedHint explains an "undefined: x" of a compiled cell when x is a
// name the session has: compiled cells see none of the interpreted cells'
// names.
func (e *Engine) undefinedHint(msg string) string {
	m := undefinedRE.FindStringSubmatch(msg)
	if m == nil {
		return ""
	}
	if b := e.compiledBuilder(); b != nil {
		if cell, _, ok := b.Owner(m[1]); ok {
			return fmt.Sprintf(" (%s is declared in compiled %s, but not where this use could see it)", m[1], cellLabel(cell))
		}
	}
	e.state.Lock()
	_, ok := e.decls[m[1]]
	e.state.Unlock()
	if ok {
		return fmt.Sprintf(" (%s is declared in an interpreted cell, which compiled code cannot see: pass it as an argument, or declare it in a compiled cell)", m[1])
	}
	return ""
}

// compiledHints improves an interpreted cell's error where compiled cells
// are involved: a compiled generic used from the interpreter is explained,
// and panic frames in compiled cells quote their lines.
func (e *Engine) compiledHints(r Result) Result {
	b := e.compiledBuilder()
	if r.Err == nil || b == nil {
		return r
	}
	e.expandFrames(r.Err)
	for _, m := range genericRE.FindAllStringSubmatch(r.Err.Value, -1) {
		cell, d, ok := b.Owner(m[1])
		if !ok || !d.Generic {
			continue
		}
		example := "var " + d.Name + "Int = " + d.Name + "[int]"
		if d.Kind == "type" {
			example = "type " + d.Name + "Int = " + d.Name + "[int]"
		}
		hint := fmt.Sprintf("%s is a generic %s of compiled %s, and the interpreter cannot instantiate compiled generics: "+
			"declare the instantiation you need in a compiled cell, e.g. `%s`, and use that name", d.Name, d.Kind, cellLabel(cell), example)
		r.Err.Value += " (" + hint + ")"
		r.Err.Traceback = append(r.Err.Traceback, "  "+hint)
		break
	}
	return r
}

var genericRE = regexp.MustCompile(`undefined: (\w+)`)

var frameRE = regexp.MustCompile(`^  inside (.+) \(compiled (cell\d+), line (\d+)\)$`)

// expandFrames quotes the cell line of each compiled frame of a panic.
func (e *Engine) expandFrames(ce *CellError) {
	var tb []string
	for _, l := range ce.Traceback {
		m := frameRE.FindStringSubmatch(l)
		if m == nil {
			tb = append(tb, l)
			continue
		}
		line, _ := strconv.Atoi(m[3])
		e.state.Lock()
		src := e.files[m[2]]
		e.state.Unlock()
		tb = append(tb, fmt.Sprintf("  inside %s, compiled %s, line %d:", m[1], cellLabel(m[2]), line))
		if text := strings.Split(src, "\n"); line >= 1 && line <= len(text) {
			tb = append(tb, "    "+strings.ReplaceAll(strings.TrimRight(text[line-1], "\r"), "\t", "    "))
		}
	}
	ce.Traceback = tb
}
