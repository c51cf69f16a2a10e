package engine

import (
	"encoding/base64"
	"go/ast"

	"github.com/seed43a1e1ab/gocl/kernel/display"
)

// Rich output of cell-defined types through the display package.
//
// yaegi hands compiled code the bare value of an interpreted type, without
// its methods, so display.Show(v) of a type declared in a cell with an
// HTML() or SVG() method would show plain text. The engine rewrites the
// calls that take such a value — display.Show(v), display.New(v),
// display.Save(v, path) and h.Update(v) — to pass __gocl_rich(v) instead:
// interpreted code that sees the methods and, when it finds any, hands
// display a ready Bundle. h.Update is rewritten only for names known to hold
// a *display.Handle (see handleNames), and checked again at run time; if a
// rewritten cell does not compile, it runs as written.

// richFuncs are the display functions whose first argument is rendered.
var richFuncs = map[string]bool{"Show": true, "New": true, "Save": true}

// rewriteRichCalls rewrites the calls in n as described above and returns
// a function that restores n, or nil when it changed nothing.
func (e *Engine) rewriteRichCalls(n ast.Node) (restore func()) {
	displayAlias := ""
	e.state.Lock()
	for alias, path := range e.imports {
		if path == displayPath {
			displayAlias = alias
		}
	}
	e.state.Unlock()
	if displayAlias == "" {
		return nil
	}
	handles := e.handleNames(n, displayAlias)
	var undo []func()
	ast.Inspect(n, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || len(call.Args) == 0 || call.Ellipsis.IsValid() {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		arg := call.Args[0]
		var wrapped ast.Expr
		switch {
		case isIdent(sel.X, displayAlias) && richFuncs[sel.Sel.Name]:
			wrapped = helperCall("rich", arg)
		case sel.Sel.Name == "Update" && len(call.Args) == 1 && handles[identName(sel.X)]:
			wrapped = helperCall("richFor", sel.X, arg)
		default:
			return true
		}
		call.Args[0] = wrapped
		undo = append(undo, func() { call.Args[0] = arg })
		return true
	})
	if len(undo) == 0 {
		return nil
	}
	return func() {
		for i := len(undo) - 1; i >= 0; i-- {
			undo[i]()
		}
	}
}

func isIdent(x ast.Expr, name string) bool {
	id, ok := x.(*ast.Ident)
	return ok && id.Name == name
}

func identName(x ast.Expr) string {
	if id, ok := x.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// handleNames returns the names that hold a *display.Handle: globals that
// hold one now, and names n assigns from display.New or display.NewHTML.
// Only their Update calls are rewritten: yaegi would compile an
// Update(__gocl_richFor(...)) of any type and fail only when it runs.
func (e *Engine) handleNames(n ast.Node, displayAlias string) map[string]bool {
	names := map[string]bool{}
	for name, sym := range e.Scope().Globals {
		if sym.Value.IsValid() && sym.Value.CanInterface() {
			if _, ok := sym.Value.Interface().(*display.Handle); ok {
				names[name] = true
			}
		}
	}
	makesHandle := func(x ast.Expr) bool {
		call, ok := x.(*ast.CallExpr)
		if !ok {
			return false
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		return ok && isIdent(sel.X, displayAlias) && (sel.Sel.Name == "New" || sel.Sel.Name == "NewHTML")
	}
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if len(n.Lhs) == len(n.Rhs) {
				for i, r := range n.Rhs {
					if name := identName(n.Lhs[i]); name != "" && makesHandle(r) {
						names[name] = true
					}
				}
			}
		case *ast.ValueSpec:
			if len(n.Names) == len(n.Values) {
				for i, v := range n.Values {
					if makesHandle(v) {
						names[n.Names[i].Name] = true
					}
				}
			}
		}
		return true
	})
	delete(names, "")
	return names
}

func helperCall(name string, args ...ast.Expr) ast.Expr {
	return &ast.CallExpr{Fun: &ast.Ident{NamePos: args[len(args)-1].Pos(), Name: helperPrefix + name},
		Lparen: args[len(args)-1].Pos(), Args: args, Rparen: args[len(args)-1].End()}
}

// richBundle is hook.Rich: the Bundle for a value of an interpreted type
// whose methods the helper called, or nil when it had none (then the value
// itself goes to display, whose own rules apply).
func richBundle(v any, text string, rich map[string]any) any {
	if len(rich) == 0 {
		return nil
	}
	b := display.BundleOf(unwrap(v))
	if text != "" {
		b[display.MIMEText] = text
	}
	for mime, data := range rich {
		if d, ok := data.([]byte); ok {
			b[mime] = base64.StdEncoding.EncodeToString(d)
			continue
		}
		b[mime] = data
	}
	return b
}

// isHandle is hook.IsHandle.
func isHandle(v any) bool {
	_, ok := v.(*display.Handle)
	return ok
}

// richSource is the interpreted half, compiled with the other helpers.
const richSource = `
func __gocl_rich(v any) any {
	rich, text := __gocl_richOf(v)
	if b := __gocl_hook.Rich(v, text, rich); b != nil {
		return b
	}
	return v
}

func __gocl_richFor(recv any, v any) any {
	if __gocl_hook.IsHandle(recv) {
		return __gocl_rich(v)
	}
	return v
}
`
