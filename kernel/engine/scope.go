package engine

import (
	"context"
	"errors"
	"github.com/traefik/yaegi/interp"
	"go/ast"
	"go/token"
	"reflect"
	"strconv"
	"strings"

	"github.com/seed43a1e1ab/gocl/kernel/display"
)

// Symbol is one name the user declared in a cell.
type Symbol struct {
	// Kind is "var", "const", "func" or "type".
	Kind string
	// Value is the live value of a var or const; it is the zero Value for
	// funcs and types (their declaration is in Decl).
	Value reflect.Value
	// Decl is the declaration as written: a func's signature, a type's
	// spec, a var's spec or its short declaration statement.
	Decl string
}

// Scope is what cells can name right now, for completion and inspection.
type Scope struct {
	// Globals are the user's declarations by name.
	Globals map[string]Symbol
	// Imports maps each package name usable in cells to its import path:
	// the default imports, Options.Preimports and the cells' imports.
	Imports map[string]string
}

// Scope returns a snapshot of the user's global names and the importable
// package names. It may be called while a cell runs; Values are live.
func (e *Engine) Scope() Scope {
	s := Scope{Globals: map[string]Symbol{}, Imports: map[string]string{}}
	e.state.Lock()
	for n, sym := range e.decls {
		s.Globals[n] = sym
	}
	for n, p := range e.imports {
		s.Imports[n] = p
	}
	in := e.in
	e.state.Unlock()
	if in == nil {
		return s
	}
	e.state.Lock()
	dropped := make(map[string]bool, len(e.dropped))
	for n := range e.dropped {
		dropped[n] = true
	}
	e.state.Unlock()
	for n, v := range globals(in) {
		if strings.HasPrefix(n, helperPrefix) || n == "_" || dropped[n] {
			continue
		}
		sym := s.Globals[n]
		if sym.Kind == "" || sym.Kind == "func" || sym.Kind == "type" {
			sym.Kind = "var"
		}
		sym.Value = v
		s.Globals[n] = sym
	}
	return s
}

// recordDecls notes the names a chunk declared, after it ran.
func (e *Engine) recordDecls(p *parsed) {
	e.replay.commit(p)
	e.state.Lock()
	defer e.state.Unlock()
	if p.body != nil {
		for _, st := range p.body.List {
			if ds, ok := st.(*ast.DeclStmt); ok {
				if g, ok := ds.Decl.(*ast.GenDecl); ok && g.Tok == token.VAR {
					for _, sp := range g.Specs {
						for _, id := range sp.(*ast.ValueSpec).Names {
							if id.Name != "_" {
								e.decls[id.Name] = Symbol{Kind: "var", Decl: "var " + p.text(sp)}
							}
						}
					}
				}
				continue
			}
			as, ok := st.(*ast.AssignStmt)
			if !ok || as.Tok != token.DEFINE {
				continue
			}
			for _, l := range as.Lhs {
				if id, ok := l.(*ast.Ident); ok && id.Name != "_" {
					e.decls[id.Name] = Symbol{Kind: "var", Decl: p.text(as)}
				}
			}
		}
		return
	}
	for _, d := range p.file.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if k := methodKey(d); k != "" {
				e.methods[k] = d
				e.methodTexts[k] = normalize(p.text(d))
			}
			if d.Recv == nil {
				e.decls[d.Name.Name] = Symbol{Kind: "func", Decl: strings.TrimSpace(p.text(d.Type))}
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					text := p.text(s)
					e.types[s.Name.Name] = normalize(text)
					e.decls[s.Name.Name] = Symbol{Kind: "type", Decl: "type " + text}
				case *ast.ValueSpec:
					kind := "var"
					if d.Tok == token.CONST {
						kind = "const"
					}
					for _, id := range s.Names {
						if id.Name != "_" {
							e.decls[id.Name] = Symbol{Kind: kind, Decl: kind + " " + p.text(s)}
						}
					}
				}
			}
		}
	}
}

// Evaluate computes one expression for user_expressions: its bundle, or the
// error. What the expression prints is discarded.
func (e *Engine) Evaluate(ctx context.Context, expr string) (display.Bundle, *CellError) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return nil, simpleError("EngineClosed", "this engine was closed; restart the kernel")
	}
	if err := e.waitBusy(ctx); err != nil {
		return nil, err
	}
	e.cellSeq++
	name := "cell" + itoa(e.cellSeq)
	chunks := splitCell(expr)
	if len(chunks) != 1 || chunks[0].kind != kindStmt {
		return nil, simpleError("SyntaxError", "user expression is not a single expression: "+expr)
	}
	p, err := e.parseChunk(name, expr, chunks[0])
	if err != nil {
		return nil, e.syntaxError(name, err)
	}
	if len(p.body.List) != 1 {
		return nil, simpleError("SyntaxError", "user expression is not a single expression: "+expr)
	}
	final, ok := p.body.List[0].(*ast.ExprStmt)
	if !ok {
		return nil, simpleError("SyntaxError", "user expression is not an expression: "+expr)
	}
	e.state.Lock()
	e.files[name] = expr
	e.state.Unlock()
	_, end := beginRequest(ctx, discardSink{})
	defer end()
	b, cerr := e.show(ctx, name, p, final)
	if cerr == nil && b == nil {
		b = display.Bundle{display.MIMEText: ""}
	}
	return b, cerr
}

func itoa(n int) string { return strconv.Itoa(n) }

// discardSink drops everything; Input refuses.
type discardSink struct{}

func (discardSink) Stream(string, string)   {}
func (discardSink) Display(display.Message) {}
func (discardSink) Input(string, bool) (string, error) {
	return "", errNoInput
}

var errNoInput = errors.New("stdin is not available here")

// globals is yaegi's Globals, which panics (index out of range) when a cell
// has compiled globals that its frame does not hold yet; then it reports
// none, rather than take the kernel down from a completion request.
func globals(in *interp.Interpreter) (g map[string]reflect.Value) {
	defer func() {
		if recover() != nil {
			g = nil
		}
	}()
	return in.Globals()
}
