package engine

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"github.com/seed43a1e1ab/gocl/kernel/celltypes"
	"github.com/seed43a1e1ab/gocl/kernel/cellvalue"
	"github.com/seed43a1e1ab/gocl/kernel/symbols/stdlib"
	"github.com/seed43a1e1ab/gocl/kernel/symtypes"
)

// Values of the cells' own types handed to compiled fmt, errors and
// encoding/json.
//
// yaegi gives compiled code a cell type's value bare: a struct without its
// name, with "X" before its unexported fields, a `type Level int` as a plain
// int, no methods (see kernel/cellvalue). So before a cell runs that calls
// one of crossTargets with such a value, the engine type-checks it
// (kernel/celltypes) to learn each argument's static type, and rewrites the
// call:
//
//	fmt.Printf("%v %T\n", t, t)
//	__gocl_hook.FmtPrintf("%v %T\n", __gocl_hook.Box(t, 3), __gocl_hook.Box(t, 3))
//
// where 3 numbers the descriptor of t's static type (a cellvalue.Type) and
// FmtPrintf is cellvalue.Printf, which prints a box as fmt prints the real
// value. Methods of the cells' types reach the descriptors through small
// interpreted helpers compiled with the cell, such as
//
//	func __gocl_cv7(v T) string { return v.String() }
//
// A cell that calls none of crossTargets, or in a session that declared no
// type, is not checked: it costs only the parse of its declarations, which
// the session keeps for later checks.

// crossTargets maps the compiled functions whose arguments are handed over,
// by package path and name, to their replacements in the engine's hook
// package.
var crossTargets = map[string]map[string]string{
	"fmt": {"Print": "FmtPrint", "Println": "FmtPrintln", "Printf": "FmtPrintf", "Sprint": "FmtSprint",
		"Sprintln": "FmtSprintln", "Sprintf": "FmtSprintf", "Fprint": "FmtFprint", "Fprintln": "FmtFprintln",
		"Fprintf": "FmtFprintf", "Errorf": "FmtErrorf", "Append": "FmtAppend", "Appendln": "FmtAppendln",
		"Appendf": "FmtAppendf"},
	"errors":        {"Is": "ErrorsIs", "As": "ErrorsAs", "Unwrap": "ErrorsUnwrap", "Join": "ErrorsJoin"},
	"encoding/json": {"Marshal": "JSONMarshal", "MarshalIndent": "JSONMarshalIndent", "Unmarshal": "JSONUnmarshal"},
}

// crossHooks are the replacements, as the hook package exports them, and
// yaegi's MapTypes for BoxIface: like yaegi's own fmt.Println, it is given
// a value of a cell type with a String method that an interface holds
// wrapped as a fmt.Stringer, whose method compiled code calls.
func crossHooks(x *crossing) (map[string]reflect.Value, map[reflect.Value][]reflect.Type) {
	boxIface := reflect.ValueOf(func(v any, id int) any { return x.box(v, id) })
	printers := []reflect.Type{reflect.TypeOf((*fmt.Formatter)(nil)).Elem(), reflect.TypeOf((*fmt.Stringer)(nil)).Elem()}
	return map[string]reflect.Value{
		"Box":      reflect.ValueOf(x.box),
		"BoxIface": boxIface,
		"Mirror":   reflect.ValueOf(x.mirror),
		"BoxText":  reflect.ValueOf(x.boxText),
		// (Print, Println and Printf write where yaegi's own fmt does: to
		// the interpreter's standard output.)
		"FmtPrint":          reflect.ValueOf(func(a ...any) (int, error) { return cellvalue.Fprint(cellWriter{}, a...) }),
		"FmtPrintln":        reflect.ValueOf(func(a ...any) (int, error) { return cellvalue.Fprintln(cellWriter{}, a...) }),
		"FmtPrintf":         reflect.ValueOf(func(f string, a ...any) (int, error) { return cellvalue.Fprintf(cellWriter{}, f, a...) }),
		"FmtSprint":         reflect.ValueOf(cellvalue.Sprint),
		"FmtSprintln":       reflect.ValueOf(cellvalue.Sprintln),
		"FmtSprintf":        reflect.ValueOf(cellvalue.Sprintf),
		"FmtFprint":         reflect.ValueOf(cellvalue.Fprint),
		"FmtFprintln":       reflect.ValueOf(cellvalue.Fprintln),
		"FmtFprintf":        reflect.ValueOf(cellvalue.Fprintf),
		"FmtErrorf":         reflect.ValueOf(cellvalue.Errorf),
		"FmtAppend":         reflect.ValueOf(cellvalue.Append),
		"FmtAppendln":       reflect.ValueOf(cellvalue.Appendln),
		"FmtAppendf":        reflect.ValueOf(cellvalue.Appendf),
		"ErrorsIs":          reflect.ValueOf(cellvalue.Is),
		"ErrorsAs":          reflect.ValueOf(x.errorsAs),
		"ErrorsUnwrap":      reflect.ValueOf(cellvalue.Unwrap),
		"ErrorsJoin":        reflect.ValueOf(cellvalue.Join),
		"JSONMarshal":       reflect.ValueOf(cellvalue.Marshal),
		"JSONMarshalIndent": reflect.ValueOf(cellvalue.MarshalIndent),
		"JSONUnmarshal":     reflect.ValueOf(func(data []byte, v any, id int) error { return cellvalue.Unmarshal(data, v, x.desc(id)) }),
		"JSONDecode":        reflect.ValueOf(func(dec *json.Decoder, v any, id int) error { return cellvalue.DecodeJSON(dec, v, x.desc(id)) }),
	}, map[reflect.Value][]reflect.Type{boxIface: printers}
}

// crossing is the engine's state for handing values over: the session's
// type checker and the descriptors the rewritten cells number.
type crossing struct {
	mu       sync.Mutex
	session  *celltypes.Session
	descs    []*cellvalue.Type
	helpers  map[string]reflect.Value         // helper name -> the compiled-callable func
	rawTypes map[reflect.Type]*cellvalue.Type // for the resolver: the bare type of a cell's struct type (nil: two alike)
	pending  []*descBuilder                   // cells whose helpers are not picked up yet
	probed   map[string]bool                  // names of the struct types whose bare type is learnt
	dynKnown map[string]bool                  // names of the types in the resolver's type switch
	dynAll   []dynCase                        // its cases
	dynFn    reflect.Value                    // the compiled type switch: func(any) int
	seq      int                              // numbers the helpers, so that no two cells' share a name
}

// next numbers a new helper.
func (x *crossing) next() int {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.seq++
	return x.seq
}

func newCrossing() *crossing {
	x := &crossing{helpers: map[string]reflect.Value{}, rawTypes: map[reflect.Type]*cellvalue.Type{}, probed: map[string]bool{}, dynKnown: map[string]bool{}}
	cellvalue.SetResolver(x.resolve)
	return x
}

// box is __gocl_hook.Box.
func (x *crossing) box(v any, id int) any {
	d := x.desc(id)
	if d != nil && d.Kind != cellvalue.Interface {
		// A value of a concrete type that went through an interface on
		// its way here (the show helper's any) may still be in yaegi's
		// valueInterface.
		if inner, ok := valueInterfaceValue(v); ok {
			v = inner
		}
	}
	return cellvalue.Box(v, d)
}

// boxText is __gocl_hook.BoxText: how fmt prints v as the static type id.
func (x *crossing) boxText(v any, id int) string {
	return cellvalue.Sprint(x.box(v, id))
}

// mirror is __gocl_hook.Mirror.
func (x *crossing) mirror(v any, id int) any {
	return cellvalue.Mirror(v, x.desc(id))
}

// errorsAs is __gocl_hook.ErrorsAs: errors.As with the static type of
// *target's element.
func (x *crossing) errorsAs(err error, target any, id int) bool {
	return cellvalue.As(err, target, x.desc(id))
}

func (x *crossing) desc(id int) *cellvalue.Type {
	x.mu.Lock()
	defer x.mu.Unlock()
	if id < 0 || id >= len(x.descs) {
		return nil
	}
	return x.descs[id]
}

// resolve is the dynamic type of a value held in an interface: a cell's
// struct type, or a pointer to one, known by its bare reflect type.
//
// A yaegi wrapper whose value is of no known type is kept as it is: its
// methods are the cell type's own, which compiled code calls right (a
// `type T int` with an Error method in an error), and what it holds may not
// be the value at all (yaegi v0.16.1 keeps a field of a one-field struct
// returned as an error).
func (x *crossing) resolve(v any) (any, *cellvalue.Type, bool) {
	orig, raw := v, v
	wrapped := isYaegiWrapper(v)
	if wrapped {
		raw = unwrapYaegi(v)
	}
	if inner, ok := valueInterfaceValue(raw); ok {
		// yaegi keeps the cell type beside the value: its own type switch
		// tells which it is.
		if d := x.dynamic(raw); d != nil {
			return inner, d, true
		}
		raw = inner
	}
	t := reflect.TypeOf(raw)
	if t == nil {
		return v, nil, false
	}
	x.mu.Lock()
	d := x.rawTypes[t]
	x.mu.Unlock()
	if d == nil && wrapped {
		// yaegi's type switch knows the wrapper's type; its value is
		// trusted only when it has that type's shape.
		if v, d := x.wrapped(orig, raw); d != nil {
			return v, d, true
		}
		return orig, &cellvalue.Type{Kind: cellvalue.Basic, String: reflect.TypeOf(orig).String()}, true
	}
	return raw, d, d != nil
}

// wrapped names the cell type of a yaegi wrapper (such as
// stdlib._fmt_Stringer{IValue, WString}) when exactly one of the cells'
// types has the shape of the value it holds and the methods it wraps
// (its W fields); yaegi's own type switch does not see through wrappers.
// It returns the value too: yaegi v0.16.1 wraps a struct value returned as
// an interface with only its last field, from which a one-field struct is
// made again (the common `type ValErr struct{ msg string }`).
func (x *crossing) wrapped(w, raw any) (any, *cellvalue.Type) {
	wt := reflect.TypeOf(w)
	x.mu.Lock()
	cases := x.dynAll
	x.mu.Unlock()
	var found *cellvalue.Type
	var value any
	for _, c := range cases {
		d := x.desc(c.id)
		if d == nil || !hasWrapped(wt, d.Methods) {
			continue
		}
		v := raw
		if !hasShape(raw, d) {
			if v = x.oneField(raw, d); v == nil {
				continue
			}
		}
		if found != nil {
			return nil, nil // two candidates: not known
		}
		found, value = d, v
	}
	return value, found
}

// oneField makes the bare value of a one-field cell struct type d from the
// value of its field, or returns nil.
func (x *crossing) oneField(field any, d *cellvalue.Type) any {
	if d.Kind != cellvalue.Named || d.Under == nil || d.Under.Kind != cellvalue.Struct || len(d.Under.Fields) != 1 {
		return nil
	}
	x.mu.Lock()
	var rt reflect.Type
	for t, known := range x.rawTypes {
		if known == d || known != nil && known.String == d.String && t.Kind() == reflect.Struct {
			rt = t
		}
	}
	x.mu.Unlock()
	fv := reflect.ValueOf(field)
	if rt == nil || rt.NumField() != 1 || !fv.IsValid() || fv.Type() != rt.Field(0).Type {
		return nil
	}
	v := reflect.New(rt).Elem()
	v.Field(0).Set(fv)
	return v.Interface()
}

// hasWrapped reports whether methods has every method a yaegi wrapper
// type wraps (a func field named W<Method>) that cellvalue knows of.
func hasWrapped(wt reflect.Type, m *cellvalue.Methods) bool {
	for i := 0; i < wt.NumField(); i++ {
		name, ok := strings.CutPrefix(wt.Field(i).Name, "W")
		if !ok {
			continue
		}
		if m == nil {
			return false
		}
		switch {
		case name == "String" && m.String == nil, name == "Error" && m.Error == nil, name == "GoString" && m.GoString == nil:
			return false
		}
	}
	return true
}

// hasShape reports whether a bare value can be one of type d: a struct of
// as many fields, a pointer, or the very type of a named basic type.
func hasShape(raw any, d *cellvalue.Type) bool {
	rt := reflect.TypeOf(raw)
	if rt == nil {
		return false
	}
	u := d
	if d.Kind == cellvalue.Named {
		u = d.Under
	}
	switch u.Kind {
	case cellvalue.Struct:
		return rt.Kind() == reflect.Struct && rt.NumField() == len(u.Fields)
	case cellvalue.Pointer:
		return rt.Kind() == reflect.Pointer
	case cellvalue.Slice:
		return rt.Kind() == reflect.Slice
	case cellvalue.Map:
		return rt.Kind() == reflect.Map
	case cellvalue.Array:
		return rt.Kind() == reflect.Array && rt.Len() == u.Len
	case cellvalue.Basic:
		return rt.String() == u.String
	}
	return false
}

// dynamic asks the interpreted type switch which cell type v (a yaegi
// valueInterface) holds; nil when none.
func (x *crossing) dynamic(v any) (d *cellvalue.Type) {
	x.mu.Lock()
	fn := x.dynFn
	x.mu.Unlock()
	if !fn.IsValid() {
		return nil
	}
	defer func() {
		if recover() != nil {
			d = nil
		}
	}()
	arg := reflect.New(fn.Type().In(0)).Elem()
	arg.Set(reflect.ValueOf(v))
	id := fn.Call([]reflect.Value{arg})[0].Int()
	return x.desc(int(id))
}

// crossCell is what the engine keeps of a cell for the session: its
// declarations and what its statements declare, as source.
func (e *Engine) crossCell(ps []*parsed) celltypes.Cell {
	c := celltypes.Cell{Imports: map[string]string{}}
	for _, p := range ps {
		switch p.kind {
		case kindImport:
			for _, spec := range p.file.Imports {
				path, err := strconv.Unquote(spec.Path.Value)
				if err != nil {
					continue
				}
				name := importName(path)
				if spec.Name != nil {
					name = spec.Name.Name
				}
				c.Imports[name] = path
			}
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
			imports[n] = p
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
	if !typed {
		for _, d := range c.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.TYPE {
				typed = true
			}
		}
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
		var n ast.Node = p.body
		if p.body == nil {
			n = p.file
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

// helperReq is one interpreted helper a cell's descriptors call: a method
// of a cell type, or (method "") the probe that tells its bare type.
type helperReq struct {
	name, recv, method string
	sig                string // the helper's parameters and results after the receiver
	call               string // the method call's arguments
	results            bool
}

// rewriteCrossings type-checks the cell and rewrites its calls of
// crossTargets (see above). It returns the source of the helpers the new
// descriptors call, to compile with the cell's declarations, and the
// descriptors waiting for their helpers.
func (e *Engine) rewriteCrossings(ps []*parsed, c celltypes.Cell) string {
	ch := e.crossSession().Check(c)
	b := &descBuilder{x: e.cross, pkg: ch.Pkg, memo: map[types.Type]*cellvalue.Type{}, helpers: map[string]*helperReq{}}
	e.showType = -1
	if x := finalExpr(ps); x != nil {
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
	return b.source()
}

// descBuilder makes the descriptors of one cell's rewrite.
type descBuilder struct {
	x         *crossing
	pkg       *types.Package
	memo      map[types.Type]*cellvalue.Type
	helpers   map[string]*helperReq // by name
	probes    []probe               // struct types whose bare type the resolver learns
	probedAll bool
	dyn       []dynCase // the cell types new to the resolver's type switch
	dynName   string    // the new type switch helper, when dyn is not empty
}

type probe struct {
	helper string
	named  *cellvalue.Type
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
		if d := b.desc(t); d.Kind != cellvalue.Basic {
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
		d := b.desc(pt.Elem())
		if d.Kind == cellvalue.Basic || d.Kind == cellvalue.Interface && !b.involvesCell(pt.Elem()) {
			return
		}
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
		if d.Kind == cellvalue.Interface {
			hook = "BoxIface"
		}
		var boxed ast.Expr = &ast.CallExpr{Fun: hookSel(a.Pos(), hook), Lparen: a.Pos(),
			Args: []ast.Expr{a, intLit(a.End(), b.register(d))}, Rparen: a.End()}
		if isErrors {
			// errors' parameters are errors: the box of a cell's error
			// type is one.
			boxed = &ast.TypeAssertExpr{X: boxed, Lparen: a.End(), Type: &ast.Ident{NamePos: a.End(), Name: "error"}, Rparen: a.End()}
		}
		call.Args[i] = boxed
		changed = true
	}
	if changed {
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

// register numbers a descriptor for the rewritten cell.
func (b *descBuilder) register(d *cellvalue.Type) int {
	b.x.mu.Lock()
	defer b.x.mu.Unlock()
	b.x.descs = append(b.x.descs, d)
	return len(b.x.descs) - 1
}

// isCell reports whether t is a named type declared in a cell.
func isCell(t types.Type) (*types.Named, bool) {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != "main" || n.TypeArgs().Len() > 0 {
		return nil, false
	}
	return n, true
}

// involvesCell reports whether a value of type t can hold a value of a
// cell's type: t names one, is built of one, or has an interface inside.
func (b *descBuilder) involvesCell(t types.Type) bool {
	seen := map[types.Type]bool{}
	var walk func(types.Type) bool
	walk = func(t types.Type) bool {
		t = types.Unalias(t)
		if seen[t] {
			return false
		}
		seen[t] = true
		if _, ok := isCell(t); ok {
			return true
		}
		switch t := t.(type) {
		case *types.Named:
			// A compiled package's type: its values are real Go values,
			// unless it is an interface (error, fmt.Stringer, io.Reader).
			_, iface := t.Underlying().(*types.Interface)
			return iface
		case *types.Pointer:
			return walk(t.Elem())
		case *types.Slice:
			return walk(t.Elem())
		case *types.Array:
			return walk(t.Elem())
		case *types.Map:
			return walk(t.Key()) || walk(t.Elem())
		case *types.Struct:
			for i := 0; i < t.NumFields(); i++ {
				if walk(t.Field(i).Type()) {
					return true
				}
			}
		case *types.Interface:
			return true
		case *types.Signature:
			// Only its %T shows: func(main.Dog) string.
			for _, tup := range []*types.Tuple{t.Params(), t.Results()} {
				for i := 0; i < tup.Len(); i++ {
					if _, ok := isCell(tup.At(i).Type()); ok {
						return true
					}
				}
			}
		}
		return false
	}
	return walk(t)
}

// recursive reports whether t involves a cell's type that refers to itself
// (type T struct{ next *T }): yaegi builds such types with stand-in fields
// that it patches in place, which reflection cannot follow, so their values
// are left to yaegi's own printing.
func (b *descBuilder) recursive(t types.Type) bool {
	var onPath []*types.Named
	seen := map[types.Type]bool{}
	var walk func(types.Type) bool
	walk = func(t types.Type) bool {
		t = types.Unalias(t)
		if n, ok := isCell(t); ok {
			for _, p := range onPath {
				if p == n {
					return true
				}
			}
			if seen[n] {
				return false
			}
			seen[n] = true
			onPath = append(onPath, n)
			defer func() { onPath = onPath[:len(onPath)-1] }()
			return walk(n.Underlying())
		}
		switch t := t.(type) {
		case *types.Pointer:
			return walk(t.Elem())
		case *types.Slice:
			return walk(t.Elem())
		case *types.Array:
			return walk(t.Elem())
		case *types.Chan:
			return walk(t.Elem())
		case *types.Map:
			return walk(t.Key()) || walk(t.Elem())
		case *types.Signature:
			for _, tup := range []*types.Tuple{t.Params(), t.Results()} {
				for i := 0; i < tup.Len(); i++ {
					if walk(tup.At(i).Type()) {
						return true
					}
				}
			}
		case *types.Struct:
			for i := 0; i < t.NumFields(); i++ {
				if walk(t.Field(i).Type()) {
					return true
				}
			}
		}
		return false
	}
	return walk(t)
}

// qualifier writes a package as %T does: by its name.
func qualifier(p *types.Package) string { return p.Name() }

// desc returns the descriptor of static type t.
func (b *descBuilder) desc(t types.Type) *cellvalue.Type {
	t = types.Unalias(t)
	if d, ok := b.memo[t]; ok {
		return d
	}
	if !b.involvesCell(t) || b.recursive(t) {
		d := &cellvalue.Type{Kind: cellvalue.Basic, String: types.TypeString(t, qualifier)}
		b.memo[t] = d
		return d
	}
	d := &cellvalue.Type{String: types.TypeString(t, qualifier)}
	b.memo[t] = d
	b.fill(d, t)
	return d
}

// fill describes t in d: a cell's named type, or the structure of any
// other type (a cell type's underlying struct keeps its fields' Go names
// even when no field involves a cell type).
func (b *descBuilder) fill(d *cellvalue.Type, t types.Type) {
	if n, ok := isCell(t); ok {
		d.Kind, d.Name = cellvalue.Named, d.String
		d.Under = &cellvalue.Type{String: types.TypeString(n.Underlying(), qualifier)}
		b.fill(d.Under, n.Underlying())
		d.Methods = b.methods(n, false)
		d.PtrMethods = b.methods(n, true)
		if d.Under.Kind == cellvalue.Struct {
			name := fmt.Sprintf("%scvt%d", helperPrefix, b.x.next())
			b.helpers[name] = &helperReq{name: name, recv: n.Obj().Name()}
			b.probes = append(b.probes, probe{helper: name, named: d})
		}
		return
	}
	if _, iface := t.Underlying().(*types.Interface); iface {
		d.Kind = cellvalue.Interface
		b.probeAll()
		return
	}
	if _, named := t.(*types.Named); named {
		d.Kind = cellvalue.Basic // a compiled package's type
		return
	}
	switch t := t.(type) {
	case *types.Pointer:
		d.Kind, d.Elem = cellvalue.Pointer, b.desc(t.Elem())
		if n, ok := isCell(t.Elem()); ok {
			d.Methods = b.methods(n, true)
		}
	case *types.Slice:
		d.Kind, d.Elem = cellvalue.Slice, b.desc(t.Elem())
	case *types.Array:
		d.Kind, d.Elem, d.Len = cellvalue.Array, b.desc(t.Elem()), int(t.Len())
	case *types.Map:
		d.Kind, d.Key, d.Elem = cellvalue.Map, b.desc(t.Key()), b.desc(t.Elem())
	case *types.Struct:
		d.Kind = cellvalue.Struct
		for i := 0; i < t.NumFields(); i++ {
			f := t.Field(i)
			d.Fields = append(d.Fields, cellvalue.Field{Name: f.Name(), Exported: f.Exported(), Embedded: f.Embedded(),
				Tag: t.Tag(i), Type: b.desc(f.Type())})
		}
	case *types.Basic:
		d.Kind = cellvalue.Basic
	default:
		d.Kind = cellvalue.Other
	}
}

// probeAll makes descriptors (with the probes that tell their bare types)
// for every struct type the cells declared that the resolver does not know
// yet: a value held in an interface may be of any of them.
func (b *descBuilder) probeAll() {
	if b.probedAll {
		return
	}
	b.probedAll = true
	for _, name := range b.pkg.Scope().Names() {
		obj, ok := b.pkg.Scope().Lookup(name).(*types.TypeName)
		if !ok || obj.IsAlias() {
			continue
		}
		n, ok := isCell(obj.Type())
		if !ok || n.TypeParams().Len() > 0 {
			continue
		}
		if _, isIface := n.Underlying().(*types.Interface); isIface {
			continue
		}
		b.x.mu.Lock()
		known := b.x.dynKnown[name]
		b.x.mu.Unlock()
		if known {
			continue
		}
		d := b.desc(n)
		if d.Kind == cellvalue.Basic {
			continue // recursive: left to yaegi
		}
		pd := b.desc(types.NewPointer(n))
		b.dyn = append(b.dyn, dynCase{typ: name, id: b.register(d)}, dynCase{typ: "*" + name, id: b.register(pd)})
	}
}

// dynCase is one case of the interpreted type switch that tells the
// resolver a cell type held in yaegi's valueInterface.
type dynCase struct {
	typ string // the case's type, as the cell writes it
	id  int    // the descriptor's number
}

// methods returns the methods fmt, errors and encoding/json call that the
// method set of n (or *n) has, each calling an interpreted helper.
func (b *descBuilder) methods(n *types.Named, ptr bool) *cellvalue.Methods {
	var t types.Type = n
	if ptr {
		t = types.NewPointer(n)
	}
	ms := types.NewMethodSet(t)
	m := &cellvalue.Methods{}
	found := false
	for i := 0; i < ms.Len(); i++ {
		f, ok := ms.At(i).Obj().(*types.Func)
		if !ok {
			continue
		}
		sig := f.Type().(*types.Signature)
		kind := methodKind(f.Name(), sig)
		if kind == "" {
			continue
		}
		found = true
		recv := n.Obj().Name()
		if ptr {
			recv = "*" + recv
		}
		name := fmt.Sprintf("%scv%d_%s", helperPrefix, b.x.next(), f.Name())
		req := &helperReq{name: name, recv: recv, method: f.Name()}
		b.helpers[name] = req
		call := b.x.caller(name)
		switch kind {
		case "String":
			req.sig, req.call, req.results = "() string", "()", true
			s := func(raw reflect.Value) string { return call(raw)[0].String() }
			switch f.Name() {
			case "String":
				m.String = s
			case "Error":
				m.Error = s
			case "GoString":
				m.GoString = s
			}
		case "Format":
			req.sig, req.call = "(s fmt.State, verb rune)", "(s, verb)"
			m.Format = func(raw reflect.Value, s fmt.State, verb rune) {
				call(raw, reflect.ValueOf(&s).Elem(), reflect.ValueOf(verb))
			}
		case "Unwrap":
			req.sig, req.call, req.results = "() error", "()", true
			m.Unwrap = func(raw reflect.Value) error { e, _ := call(raw)[0].Interface().(error); return e }
		case "UnwrapMulti":
			req.sig, req.call, req.results = "() []error", "()", true
			m.UnwrapMulti = func(raw reflect.Value) []error { e, _ := call(raw)[0].Interface().([]error); return e }
		case "Is":
			req.sig, req.call, req.results = "(target error) bool", "(target)", true
			m.Is = func(raw reflect.Value, target error) bool {
				return call(raw, reflect.ValueOf(&target).Elem())[0].Bool()
			}
		case "As":
			req.sig, req.call, req.results = "(target any) bool", "(target)", true
			m.As = func(raw reflect.Value, target any) bool {
				return call(raw, reflect.ValueOf(&target).Elem())[0].Bool()
			}
		case "Marshal":
			req.sig, req.call, req.results = "() ([]byte, error)", "()", true
			fm := func(raw reflect.Value) ([]byte, error) {
				out := call(raw)
				bs, _ := out[0].Interface().([]byte)
				err, _ := out[1].Interface().(error)
				return bs, err
			}
			if f.Name() == "MarshalJSON" {
				m.MarshalJSON = fm
			} else {
				m.MarshalText = fm
			}
		}
	}
	if !found {
		return nil
	}
	return m
}

// methodKind says which of the methods fmt, errors and encoding/json call
// a method is, by name and signature, or "".
func methodKind(name string, sig *types.Signature) string {
	params, results := sig.Params(), sig.Results()
	is := func(t types.Type, s string) bool { return types.TypeString(t, nil) == s }
	switch {
	case (name == "String" || name == "Error" || name == "GoString") && params.Len() == 0 && results.Len() == 1 && is(results.At(0).Type(), "string"):
		return "String"
	case name == "Format" && params.Len() == 2 && results.Len() == 0 && is(params.At(0).Type(), "fmt.State") && is(params.At(1).Type(), "rune"):
		return "Format"
	case name == "Unwrap" && params.Len() == 0 && results.Len() == 1 && is(results.At(0).Type(), "error"):
		return "Unwrap"
	case name == "Unwrap" && params.Len() == 0 && results.Len() == 1 && is(results.At(0).Type(), "[]error"):
		return "UnwrapMulti"
	case name == "Is" && params.Len() == 1 && results.Len() == 1 && is(params.At(0).Type(), "error") && is(results.At(0).Type(), "bool"):
		return "Is"
	case name == "As" && params.Len() == 1 && results.Len() == 1 && is(params.At(0).Type(), "any") && is(results.At(0).Type(), "bool"):
		return "As"
	case (name == "MarshalJSON" || name == "MarshalText") && params.Len() == 0 && results.Len() == 2 &&
		is(results.At(0).Type(), "[]byte") && is(results.At(1).Type(), "error"):
		return "Marshal"
	}
	return ""
}

// caller returns a func that calls the interpreted helper name with the
// receiver's raw value and the method's arguments.
func (x *crossing) caller(name string) func(args ...reflect.Value) []reflect.Value {
	return func(args ...reflect.Value) []reflect.Value {
		x.mu.Lock()
		fn := x.helpers[name]
		x.mu.Unlock()
		if !fn.IsValid() {
			panic(fmt.Sprintf("gocl: the method helper %s is not compiled (the cell that declared it failed?)", name))
		}
		if len(args) > 0 && args[0].IsValid() && fn.Type().NumIn() > 0 {
			if want := fn.Type().In(0); args[0].Type() != want && args[0].Type().ConvertibleTo(want) {
				args[0] = args[0].Convert(want)
			}
		}
		return fn.Call(args)
	}
}

// source is the Go source of the helpers the cell's descriptors call.
func (b *descBuilder) source() string {
	if len(b.helpers) == 0 && len(b.dyn) == 0 {
		return ""
	}
	names := make([]string, 0, len(b.helpers))
	for n := range b.helpers {
		names = append(names, n)
	}
	sort.Strings(names)
	var s strings.Builder
	for _, n := range names {
		h := b.helpers[n]
		if h.method == "" {
			fmt.Fprintf(&s, "func %s(v %s) {}\n", h.name, h.recv)
			continue
		}
		sig := strings.TrimPrefix(h.sig, "(")
		params := strings.SplitN(sig, ")", 2)
		ret := "return "
		if !h.results {
			ret = ""
		}
		sep := ", "
		if params[0] == "" {
			sep = ""
		}
		fmt.Fprintf(&s, "func %s(v %s%s%s)%s { %sv.%s%s }\n", h.name, h.recv, sep, params[0], params[1], ret, h.method, h.call)
	}
	if len(b.dyn) > 0 {
		b.x.mu.Lock()
		cases := append(append([]dynCase(nil), b.x.dynAll...), b.dyn...)
		b.x.mu.Unlock()
		b.dynName = fmt.Sprintf("%scvdyn%d", helperPrefix, b.x.next())
		fmt.Fprintf(&s, "func %s(v any) int {\n\tswitch v.(type) {\n", b.dynName)
		for _, c := range cases {
			fmt.Fprintf(&s, "\tcase %s:\n\t\treturn %d\n", c.typ, c.id)
		}
		s.WriteString("\t}\n\treturn -1\n}\n")
	}
	b.x.mu.Lock()
	b.x.pending = append(b.x.pending, b)
	b.x.mu.Unlock()
	return s.String()
}

// helpersCompiled picks up the compiled helpers of the cells' pending
// descriptors (eval evaluates a name in the interpreter), and learns the
// bare types of their struct types for the resolver.
func (x *crossing) helpersCompiled(eval func(string) (reflect.Value, error)) {
	x.mu.Lock()
	defer x.mu.Unlock()
	for _, b := range x.pending {
		for name := range b.helpers {
			if fn, err := eval(name); err == nil && fn.IsValid() && fn.Kind() == reflect.Func {
				x.helpers[name] = fn
			}
		}
		for _, p := range b.probes {
			fn, ok := x.helpers[p.helper]
			if !ok || fn.Type().NumIn() != 1 {
				continue
			}
			raw := fn.Type().In(0)
			x.probed[strings.TrimPrefix(p.named.Name, "main.")] = true
			x.learn(raw, p.named)
			x.learn(reflect.PointerTo(raw), &cellvalue.Type{Kind: cellvalue.Pointer, String: "*" + p.named.String,
				Elem: p.named, Methods: p.named.PtrMethods})
		}
		if b.dynName != "" {
			if fn, err := eval(b.dynName); err == nil && fn.Kind() == reflect.Func && fn.Type().NumIn() == 1 {
				x.dynFn = fn
				x.dynAll = append(x.dynAll, b.dyn...)
				for _, c := range b.dyn {
					x.dynKnown[strings.TrimPrefix(c.typ, "*")] = true
				}
			}
		}
	}
	x.pending = nil
}

// learn records the descriptor of a bare type; two cell types alike in
// shape share a bare type, and neither is then resolved.
func (x *crossing) learn(raw reflect.Type, d *cellvalue.Type) {
	if old, ok := x.rawTypes[raw]; ok && (old == nil || old.String != d.String) {
		x.rawTypes[raw] = nil
		return
	}
	x.rawTypes[raw] = d
}

// valueInterfaceValue returns the value inside yaegi's interp.valueInterface
// (a struct of a node and a reflect.Value, both unexported), which yaegi
// hands compiled code for some interface values of cell types. Reading
// another package's unexported field needs unsafe; the layout is checked
// field by field first, so another yaegi version makes this answer false
// instead of reading the wrong memory.
func valueInterfaceValue(v any) (any, bool) {
	rv := reflect.ValueOf(v)
	if !rv.IsValid() || rv.Type().PkgPath() != interpPath || rv.Type().Name() != "valueInterface" ||
		rv.NumField() != 2 || rv.Type().Field(1).Type != reflect.TypeOf(reflect.Value{}) {
		return nil, false
	}
	cp := reflect.New(rv.Type()).Elem()
	cp.Set(rv)
	inner := *(*reflect.Value)(unsafe.Pointer(cp.Field(1).UnsafeAddr()))
	if !inner.IsValid() || !inner.CanInterface() {
		return nil, false
	}
	return inner.Interface(), true
}
