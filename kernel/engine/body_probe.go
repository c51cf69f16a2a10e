// The probes that declare a cell's top-level names before its body runs
// (see body.go).

package engine

import (
	"fmt"
	"go/ast"
	"go/token"
	"reflect"
	"strings"
)

// probePrefix names the compile-only probe variables.
const probePrefix = helperPrefix + "p"

// topDecl is one name a top-level statement declares.
type topDecl struct {
	name  string
	probe string
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
		if probes, ok := genericLitProbes(lhs, s.Rhs); ok { // yaegi_genericlit.go
			return probes, decls
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
			typ, values := genericLitSpec(len(names), vs.Type, vs.Values) // yaegi_genericlit.go
			if typ != nil {
				// The type is written: the probe needs no values (yaegi
				// v0.16.1 types each of several globals by its value,
				// `var a, b fmt.Stringer = S(1), S(2)` made a and b S's).
				values = nil
			}
			out = append(out, &ast.DeclStmt{Decl: &ast.GenDecl{TokPos: g.TokPos, Tok: token.VAR,
				Specs: []ast.Spec{&ast.ValueSpec{Names: names, Type: typ, Values: values}}}})
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
