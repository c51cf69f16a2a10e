// How a call of compiled fmt, errors, encoding/json or text/template is
// rewritten (see crossing.go).

package engine

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"github.com/seed43a1e1ab/gocl/kernel/celltypes"
	"github.com/seed43a1e1ab/gocl/kernel/cellvalue"
	"github.com/seed43a1e1ab/gocl/kernel/symbols/stdlib"
	"github.com/seed43a1e1ab/gocl/kernel/symtypes"
)

// crossCell is what the engine keeps of a cell for the session: its
// declarations and what its statements declare, as source.
func (e *Engine) crossCell(ps []*parsed) celltypes.Cell {
	c := celltypes.Cell{Imports: cellImports(ps)}
	for _, p := range ps {
		switch p.kind {
		case kindDecl:
			for _, d := range p.file.Decls {
				c.Decls = append(c.Decls, d)
				c.Texts = append(c.Texts, p.text(d))
			}
		case kindStmt:
			c.Stmts = append(c.Stmts, p.body.List...)
			for _, st := range p.body.List {
				c.AddStmt(st, p.text)
			}
		}
	}
	return c
}

// crossSession returns the session's type checker, made on first use.
func (e *Engine) crossSession() *celltypes.Session {
	x := e.cross
	if x.session == nil {
		var sources []symtypes.Source
		for _, s := range stdlib.Sources() {
			sources = append(sources, symtypes.Source(s))
		}
		imp := symtypes.New(e.tables, sources)
		e.state.Lock()
		imports := make(map[string]string, len(e.imports))
		for n, p := range e.imports {
			if p != hookPath { // the engine's own, in no symbol table
				imports[n] = p
			}
		}
		e.state.Unlock()
		x.session = celltypes.New(e.in.FileSet(), imp, imports)
	}
	return x.session
}

// needsCrossing reports whether a cell calls one of crossTargets, in a
// session where a cell type exists: only such a cell is type-checked.
func (e *Engine) needsCrossing(ps []*parsed, c celltypes.Cell) bool {
	e.state.Lock()
	typed := len(e.types) > 0
	aliases := map[string]bool{}
	for n, p := range e.imports {
		if crossTargets[p] != nil {
			aliases[n] = true
		}
	}
	e.state.Unlock()
	for n, p := range c.Imports {
		aliases[n] = crossTargets[p] != nil
	}
	for _, p := range ps {
		if typed {
			break
		}
		n := p.node()
		if n == nil {
			continue
		}
		ast.Inspect(n, func(n ast.Node) bool { // a type declared anywhere, also in a function
			if g, ok := n.(*ast.GenDecl); ok && g.Tok == token.TYPE {
				typed = true
			}
			return !typed
		})
	}
	if !typed {
		return false
	}
	if finalExpr(ps) != nil {
		return true // its value is shown
	}
	if len(aliases) == 0 {
		return false
	}
	found := false
	for _, p := range ps {
		n := p.node()
		if n == nil {
			continue
		}
		ast.Inspect(n, func(n ast.Node) bool {
			if found {
				return false
			}
			if call, ok := n.(*ast.CallExpr); ok {
				if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
					if id, ok := sel.X.(*ast.Ident); ok && aliases[id.Name] {
						found = true
					}
				}
			}
			return true
		})
	}
	return found
}

// finalExpr is the expression whose value a cell shows: its last statement,
// when that is an expression.
func finalExpr(ps []*parsed) ast.Expr {
	if len(ps) == 0 || ps[len(ps)-1].kind != kindStmt {
		return nil
	}
	list := ps[len(ps)-1].body.List
	if len(list) == 0 {
		return nil
	}
	if es, ok := list[len(list)-1].(*ast.ExprStmt); ok {
		return es.X
	}
	return nil
}

// rewriteCrossings type-checks the cell and rewrites its calls of
// crossTargets (see above). It returns the source of the helpers the new
// descriptors call, to compile with the cell's declarations, and the
// descriptors waiting for their helpers.
//
// The extras say what else it rewrites with descriptors of the same
// numbering.
func (e *Engine) rewriteCrossings(ps []*parsed, ch *celltypes.Checked, more crossExtras) string {
	eq := more.compares
	b := &descBuilder{x: e.cross, pkg: ch.Pkg, memo: map[types.Type]*cellvalue.Type{}, helpers: map[string]*helperReq{}}
	e.cross.keepFor(ch.Pkg) // crossing_reuse.go
	eq = eq && hasCellCompare(ps, ch.Info)
	typed := more.boxValues && hasTypedAssertion(ps, ch.Info)
	if ch.ProbeAll || eq || typed { // (a compared or asserted value is told by its dynamic type)
		b.probeAll()
	}
	e.showType = -1
	if x := finalExpr(ps); x != nil {
		e.cross.shown = shownExpr{x: x, results: resultCount(ch, x)}
		if tv, ok := ch.Info.Types[x]; ok && tv.IsValue() && tv.Type != nil {
			if _, tuple := tv.Type.(*types.Tuple); !tuple {
				if d := b.desc(tv.Type); d.Kind != cellvalue.Basic {
					e.showType = b.register(d)
				}
			}
		}
	}
	for _, p := range ps {
		var n ast.Node = p.body
		if p.body == nil {
			if p.kind != kindDecl {
				continue
			}
			n = p.file
		}
		ast.Inspect(n, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				b.rewriteCall(ch.Info, call)
			}
			return true
		})
	}
	descID := func(t types.Type) int { return b.register(b.desc(t)) }
	if more.boxValues {
		boxValueStructs(ps, ch.Info, descID, more.qualify) // yaegi_valerr.go, yaegi_namedvalue.go
		rewriteNamedAssertions(ps, ch.Info, descID)        // yaegi_namedvalue.go
	}
	if eq {
		rewriteIfaceCompares(ps, ch.Info, descID)
	}
	return b.source()
}

// shownExpr is what the type check told of the final expression of the
// cell last rewritten: how many values it gives (-1: not known).
type shownExpr struct {
	x       ast.Expr
	results int
}

// resultCount is how many values expression x of a cell that type-checked
// without errors gives (soft ones, such as a variable not used, aside), or
// -1.
func resultCount(ch *celltypes.Checked, x ast.Expr) int {
	for _, err := range ch.Errors {
		if te, ok := err.(types.Error); !ok || !te.Soft {
			return -1
		}
	}
	tv, ok := ch.Info.Types[x]
	switch {
	case !ok:
		return -1
	case tv.IsVoid():
		return 0
	case !tv.IsValue() || tv.Type == nil || tv.Type == types.Typ[types.Invalid]:
		return -1
	}
	if t, ok := tv.Type.(*types.Tuple); ok {
		return t.Len()
	}
	return 1
}

// showHelpers are the show helpers, for one, two and three values, in the
// order the engine tries them on a cell's final expression.
var showHelpers = []string{"show1", "show2", "show3"}

// showOrder is the order in which to try the show helpers on the final
// expression x (body.go's showCall): the one for as many values as the type
// check says x gives first, then the others as before, in case yaegi
// disagrees; none when x gives no value or more than three. Each helper
// tried costs a compile, and yaegi takes none but the one for x's values.
func (x *crossing) showOrder(expr ast.Expr) []string {
	n := -1
	if x.shown.x == expr {
		n = x.shown.results
	}
	switch {
	case n < 0 || n == 1:
		return showHelpers
	case n == 0 || n > len(showHelpers):
		return nil
	}
	order := []string{showHelpers[n-1]}
	for _, h := range showHelpers {
		if h != order[0] {
			order = append(order, h)
		}
	}
	return order
}

// crossExtras are the rewrites rewriteCrossings makes besides the calls of
// crossTargets.
type crossExtras struct {
	compares  bool                        // comparisons of a cell's values in interfaces (yaegi_ifaceeq.go)
	boxValues bool                        // conversions of value-method structs to interfaces (yaegi_valerr.go)
	qualify   func(*types.Package) string // the cell's names of packages, for the types written out
}

// rewriteCall rewrites one call of a crossTargets function.
func (b *descBuilder) rewriteCall(info *types.Info, call *ast.CallExpr) {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || call.Ellipsis.IsValid() {
		return
	}
	fn, ok := info.Uses[sel.Sel].(*types.Func)
	if !ok || fn.Pkg() == nil {
		return
	}
	sig, _ := fn.Type().(*types.Signature)
	if sig != nil && sig.Recv() != nil {
		b.rewriteMethodCall(info, fn, call)
		return
	}
	if fn.Pkg().Path() == "io" && fn.Name() == "Copy" {
		b.rewriteCopy(info, call)
		return
	}
	repl := crossTargets[fn.Pkg().Path()][fn.Name()]
	if repl == "" || sig == nil {
		return
	}
	isErrors := fn.Pkg().Path() == "errors"
	changed := false
	if fn.Pkg().Path() == "encoding/json" && fn.Name() == "Unmarshal" && len(call.Args) == 2 {
		// The destination's static type: cellvalue decodes into it by
		// its real field names.
		t := info.TypeOf(call.Args[1])
		if t == nil {
			return
		}
		if d := b.desc(t); isIfaceDesc(d) {
			// An interface (var dst any = new(RGB)): decode into its
			// dynamic value, asked in interpreted code (the static
			// type's descriptor would say "non-pointer any").
			a := call.Args[1]
			call.Fun = hookSel(sel.Pos(), "JSONUnmarshalBoxed")
			call.Args[1] = &ast.CallExpr{Fun: &ast.Ident{NamePos: a.Pos(), Name: helperPrefix + "boxdyn"}, Lparen: a.Pos(),
				Args: []ast.Expr{a, intLit(a.End(), b.register(d))}, Rparen: a.End()}
			b.probeAll()
		} else if d.Kind != cellvalue.Basic {
			call.Fun = hookSel(sel.Pos(), repl)
			call.Args = append(call.Args, intLit(call.Rparen, b.register(d)))
		}
		return
	}
	if isErrors && fn.Name() == "As" && len(call.Args) == 2 {
		pt, ok := info.TypeOf(call.Args[1]).(*types.Pointer)
		if !ok {
			return
		}
		// Always cellvalue's As, also for a compiled target: the chain may
		// pass through a cell's error, whose Unwrap only cellvalue sees.
		d := b.desc(pt.Elem())
		call.Fun = hookSel(sel.Pos(), repl)
		call.Args = append(call.Args, intLit(call.Rparen, b.register(d)))
		return
	}
	first := 0
	if sig.Variadic() && !isErrors {
		first = sig.Params().Len() - 1 // fmt's ...any; json's v is its only any
	}
	if fn.Pkg().Path() == "encoding/json" {
		first = 0
	}
	for i := first; i < len(call.Args); i++ {
		t := info.TypeOf(call.Args[i])
		if t == nil {
			continue
		}
		if _, iface := t.Underlying().(*types.Interface); iface && isErrors {
			continue // errors' own arguments: cellvalue resolves wrappers
		}
		d := b.desc(t)
		if d.Kind == cellvalue.Basic {
			continue
		}
		a := call.Args[i]
		hook := "Box"
		if isIfaceDesc(d) {
			hook = "BoxIface"
		}
		var fun ast.Expr = hookSel(a.Pos(), hook)
		if hook == "BoxIface" {
			// The dynamic type is asked in interpreted code, where yaegi
			// still knows it.
			fun = &ast.Ident{NamePos: a.Pos(), Name: helperPrefix + "boxdyn"}
			b.probeAll()
		}
		var boxed ast.Expr = &ast.CallExpr{Fun: fun, Lparen: a.Pos(),
			Args: []ast.Expr{a, intLit(a.End(), b.register(d))}, Rparen: a.End()}
		if isErrors {
			// errors' parameters are errors: the box of a cell's error
			// type is one.
			boxed = &ast.TypeAssertExpr{X: boxed, Lparen: a.End(), Type: &ast.Ident{NamePos: a.End(), Name: "error"}, Rparen: a.End()}
		}
		call.Args[i] = boxed
		changed = true
	}
	if changed && repl == "=" {
		logThroughSprint(call, sel)
		return
	}
	if (changed || isErrors) && repl != "=" {
		// errors' functions are always cellvalue's in a session with cell
		// types: a cell's error in the chain (yaegi's wrapper) has an Unwrap,
		// Is or As that compiled errors cannot see.
		call.Fun = hookSel(sel.Pos(), repl)
	}
}

// mirrorMethods are the compiled methods that read a cell value's fields
// by reflection, by the receiver's type and the method's name, with the
// index of that argument: it is handed over as a mirror with the real
// field names (cellvalue.Mirror). json's Encoder.Encode gets the box.
var mirrorMethods = map[string]map[string]int{
	"*text/template.Template": {"Execute": 1, "ExecuteTemplate": 2},
	"*html/template.Template": {"Execute": 1, "ExecuteTemplate": 2},
}

// rewriteMethodCall hands a cell value to a method of mirrorMethods as a
// mirror, and to (*json.Encoder).Encode as a box.
func (b *descBuilder) rewriteMethodCall(info *types.Info, fn *types.Func, call *ast.CallExpr) {
	recv := types.TypeString(fn.Type().(*types.Signature).Recv().Type(), nil)
	if recv == "*log.Logger" && logMethods[fn.Name()] {
		if b.boxVariadic(info, fn.Type().(*types.Signature), call) {
			logThroughSprint(call, call.Fun.(*ast.SelectorExpr))
		}
		return
	}
	hook, at := "Mirror", -1
	if i, ok := mirrorMethods[recv][fn.Name()]; ok {
		at = i
	} else if recv == "*encoding/json.Decoder" && fn.Name() == "Decode" && len(call.Args) == 1 {
		t := info.TypeOf(call.Args[0])
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if t == nil || !ok {
			return
		}
		if d := b.desc(t); d.Kind != cellvalue.Basic {
			call.Args = []ast.Expr{sel.X, call.Args[0], intLit(call.Rparen, b.register(d))}
			call.Fun = hookSel(sel.Pos(), "JSONDecode")
		}
		return
	} else if recv == "*encoding/json.Encoder" && fn.Name() == "Encode" {
		hook, at = "Box", 0
	}
	if at < 0 || at >= len(call.Args) {
		return
	}
	a := call.Args[at]
	t := info.TypeOf(a)
	if t == nil {
		return
	}
	d := b.desc(t)
	if d.Kind == cellvalue.Basic {
		return
	}
	call.Args[at] = &ast.CallExpr{Fun: hookSel(a.Pos(), hook), Lparen: a.Pos(),
		Args: []ast.Expr{a, intLit(a.End(), b.register(d))}, Rparen: a.End()}
}

func hookSel(pos token.Pos, name string) ast.Expr {
	return &ast.SelectorExpr{X: &ast.Ident{NamePos: pos, Name: "__gocl_hook"}, Sel: &ast.Ident{NamePos: pos, Name: name}}
}

func intLit(pos token.Pos, n int) ast.Expr {
	return &ast.BasicLit{ValuePos: pos, Kind: token.INT, Value: strconv.Itoa(n)}
}

// qualifier writes a package as the cell names it: by the name of its
// import, in the cell or an earlier one; "" when it has none.
func (e *Engine) qualifier(c celltypes.Cell) func(*types.Package) string {
	names := map[string]string{}
	e.state.Lock()
	for n, p := range e.imports {
		names[p] = n
	}
	e.state.Unlock()
	for n, p := range c.Imports {
		names[p] = n
	}
	return func(p *types.Package) string { return names[p.Path()] }
}

// isIfaceDesc reports whether d describes an interface type, a cell's own
// (type Shape interface{...}) included.
func isIfaceDesc(d *cellvalue.Type) bool {
	return d.Kind == cellvalue.Interface || d.Kind == cellvalue.Named && d.Under != nil && d.Under.Kind == cellvalue.Interface
}

// hasIfaceSwitch reports whether the cell has a type switch with a case of
// a compiled interface type, in a session that declared types.
func (e *Engine) hasIfaceSwitch(ps []*parsed) bool {
	e.state.Lock()
	typed := len(e.types) > 0
	e.state.Unlock()
	isIface := e.interfaceCase()
	found := false
	for _, p := range ps {
		n := p.node()
		if n == nil {
			continue
		}
		ast.Inspect(n, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.GenDecl:
				if n.Tok == token.TYPE {
					typed = true
				}
			case *ast.TypeSwitchStmt:
				if hasIfaceCase(n, isIface) {
					found = true
				}
			}
			return true
		})
	}
	return found && typed
}

// rewriteCopy makes io.Copy(dst, src) call the WriteTo of src, or else the
// ReadFrom of dst, when its static type is a cell's type that has one, as
// io.Copy does: yaegi hands io.Copy an io.Reader wrapper that has Read
// alone, so the cell's method never ran (yaegi's issue-1425).
//
//	io.Copy(dst, src)  →  func(d io.Writer, s T) (int64, error) { return s.WriteTo(d) }(dst, src)
func (b *descBuilder) rewriteCopy(info *types.Info, call *ast.CallExpr) {
	if len(call.Args) != 2 {
		return
	}
	has := func(t types.Type, method string) bool {
		if t == nil {
			return false
		}
		if _, iface := t.Underlying().(*types.Interface); iface {
			return false
		}
		named := t
		if p, ok := t.(*types.Pointer); ok {
			named = p.Elem()
		}
		if _, ok := isCell(named); !ok {
			return false
		}
		obj, _, _ := types.LookupFieldOrMethod(t, false, b.pkg, method)
		_, isFunc := obj.(*types.Func)
		return isFunc
	}
	dt, st := info.TypeOf(call.Args[0]), info.TypeOf(call.Args[1])
	var recvType types.Type
	var body string
	switch {
	case has(st, "WriteTo"):
		recvType, body = st, "WriteTo"
	case has(dt, "ReadFrom"):
		recvType, body = dt, "ReadFrom"
	default:
		return
	}
	pos := call.Pos()
	qualify := func(p *types.Package) string { return p.Name() }
	typ, ok := goTypeExpr(recvType, qualify, pos)
	if !ok {
		return
	}
	io := func(name string) ast.Expr {
		return &ast.SelectorExpr{X: &ast.Ident{NamePos: pos, Name: call.Fun.(*ast.SelectorExpr).X.(*ast.Ident).Name}, Sel: &ast.Ident{NamePos: pos, Name: name}}
	}
	id := func(name string) *ast.Ident { return &ast.Ident{NamePos: pos, Name: name} }
	dType, sType := io("Writer"), ast.Expr(typ)
	recv, arg := "s", "d"
	if body == "ReadFrom" {
		dType, sType = typ, io("Reader")
		recv, arg = "d", "s"
	}
	lit := &ast.FuncLit{
		Type: &ast.FuncType{Func: pos,
			Params: &ast.FieldList{List: []*ast.Field{
				{Names: []*ast.Ident{id("d")}, Type: dType},
				{Names: []*ast.Ident{id("s")}, Type: sType}}},
			Results: &ast.FieldList{List: []*ast.Field{{Type: id("int64")}, {Type: id("error")}}}},
		Body: &ast.BlockStmt{Lbrace: pos, Rbrace: call.End(), List: []ast.Stmt{&ast.ReturnStmt{Return: pos,
			Results: []ast.Expr{&ast.CallExpr{Fun: &ast.SelectorExpr{X: id(recv), Sel: id(body)}, Lparen: pos,
				Args: []ast.Expr{id(arg)}, Rparen: pos}}}}},
	}
	call.Fun = lit
}

// boxVariadic boxes, in place, the arguments of call that its signature's
// final ...any takes, as the crossing boxes fmt's (a cell's value goes with
// its static type; an interface's dynamic type is asked in interpreted code).
func (b *descBuilder) boxVariadic(info *types.Info, sig *types.Signature, call *ast.CallExpr) (changed bool) {
	if !sig.Variadic() || call.Ellipsis.IsValid() {
		return false
	}
	for i := sig.Params().Len() - 1; i < len(call.Args); i++ {
		a := call.Args[i]
		t := info.TypeOf(a)
		if t == nil {
			continue
		}
		d := b.desc(t)
		if d.Kind == cellvalue.Basic {
			continue
		}
		var fun ast.Expr = hookSel(a.Pos(), "Box")
		if isIfaceDesc(d) {
			fun = &ast.Ident{NamePos: a.Pos(), Name: helperPrefix + "boxdyn"}
			b.probeAll()
		}
		call.Args[i] = &ast.CallExpr{Fun: fun, Lparen: a.Pos(), Args: []ast.Expr{a, intLit(a.End(), b.register(d))}, Rparen: a.End()}
		changed = true
	}
	return changed
}

// logThroughSprint makes a call of log's Printf, Println or Print (or
// Fatal*, Panic*, function or *log.Logger method) whose arguments were boxed
// print what the crossing's fmt makes of them: log.Printf(f, v...) is
// log.Print(fmt.Sprintf(f, v...)) in Go, so
//
//	log.Printf(f, box...)  →  log.Print(__gocl_hook.FmtSprintf(f, box...))
//
// (log's own fmt would print a box's %T as the box's).
func logThroughSprint(call *ast.CallExpr, sel *ast.SelectorExpr) {
	name, sprint := sel.Sel.Name, "FmtSprint"
	switch {
	case strings.HasSuffix(name, "f"):
		name, sprint = strings.TrimSuffix(name, "f"), "FmtSprintf"
	case strings.HasSuffix(name, "ln"):
		name, sprint = strings.TrimSuffix(name, "ln"), "FmtSprintln"
	}
	pos := call.Lparen
	inner := &ast.CallExpr{Fun: hookSel(pos, sprint), Lparen: pos, Args: call.Args, Rparen: call.Rparen}
	call.Fun = &ast.SelectorExpr{X: sel.X, Sel: &ast.Ident{NamePos: sel.Sel.NamePos, Name: name}}
	call.Args = []ast.Expr{inner}
}
