package engine

import (
	"go/ast"
	"reflect"
	"regexp"
	"runtime"
	"strconv"
	"strings"

	"github.com/seed43a1e1ab/gocl/kernel/internal/yaegiaccess"
)

// yaegi runs a cell's indexing, slicing and calls through package reflect,
// so a run-time error that Go words as "runtime error: index out of range
// [3] with length 0" reaches the cell as reflect's "reflect: slice index out
// of range"; a nil pointer's field as "reflect: call of reflect.Value.Field
// on zero Value"; and a failed type assertion as yaegi's own error, with the
// assertion's position in front of Go's words. Two places give them Go's
// words back: the report of an uncaught panic (errors.go calls
// goRuntimeText), and the value recover returns to a cell: every call of
// the builtin recover in a cell is rewritten
//
//	recover()  →  __gocl_hook.Recover(recover())
//
// (recover is still called directly by the deferred function, so it still
// stops the panic; see recovered for what the hook returns). yaegi does not
// say which index or length was out of range, so Go's numbers ("[3] with
// length 0") are missing from these texts; yaegi_bounds.go checks the
// indexes where it can do so safely and cheaply before yaegi does, and
// panics with boundsError, Go's text with the numbers. Upgrading yaegi past
// this means deleting this file's rewrite and its call (goRuntimeText stays
// for the panics of compiled code).

// goRuntimeText gives reflect's and yaegi's run-time error messages Go's
// words, and strips the position yaegi puts before an interface
// conversion's message. Other texts come back unchanged; changed reports
// whether a reflect message was translated.
func goRuntimeText(text string) (string, bool) {
	text = convPosRE.ReplaceAllString(text, "")
	for _, m := range runtimeWords {
		if strings.HasPrefix(text, m.reflect) {
			return m.goText, true
		}
	}
	return text, false
}

// convPosRE matches the position yaegi puts before an interface conversion
// panic: "cell9/_.go:1:23: interface conversion: ...".
var convPosRE = regexp.MustCompile(`^(?:[A-Za-z0-9]+/_\.go:)?\d+:\d+: `)

var runtimeWords = []struct{ reflect, goText string }{
	{"reflect: slice index out of range", "runtime error: index out of range"},
	{"reflect: string index out of range", "runtime error: index out of range"},
	{"reflect: array index out of range", "runtime error: index out of range"},
	{"reflect.Value.Slice: slice index out of bounds", "runtime error: slice bounds out of range"},
	{"reflect.Value.Slice3: slice index out of bounds", "runtime error: slice bounds out of range"},
	{"reflect.Value.Slice: string slice index out of bounds", "runtime error: slice bounds out of range"},
	{"reflect: call of reflect.Value.Field on zero Value", "runtime error: invalid memory address or nil pointer dereference"},
	{"reflect: call of reflect.Value.Elem on zero Value", "runtime error: invalid memory address or nil pointer dereference"},
	// *p of a nil p: yaegi stores p.Elem(), the zero Value, with Set, or
	// passes it to compiled code with Interface. (Not "Type on zero Value":
	// yaegi raises that for a comma-ok assertion on a nil interface, where
	// Go does not panic at all.)
	{"reflect: call of reflect.Value.Set on zero Value", "runtime error: invalid memory address or nil pointer dereference"},
	{"reflect: call of reflect.Value.Interface on zero Value", "runtime error: invalid memory address or nil pointer dereference"},
	{"reflect: Method on nil interface value", "runtime error: invalid memory address or nil pointer dereference"},
	{"reflect.Value.Call: call of nil function", "runtime error: invalid memory address or nil pointer dereference"},
}

// goRuntimeError is a run-time panic of a cell in Go's words. Like the
// runtime's own errors it implements runtime.Error.
type goRuntimeError struct{ text string }

func (e *goRuntimeError) Error() string { return e.text }

// RuntimeError marks the error as a run-time panic (runtime.Error).
func (e *goRuntimeError) RuntimeError() {}

// recovered is __gocl_hook.Recover: what recover returns to a cell.
//
// A value the cell panicked with reaches it wrapped in a reflect.Value
// (yaegi's panic passes its operand as one), so that no assertion on it
// held: `r.(error)` was false for errors.New's error, `r == io.EOF` false.
// It is unwrapped: the cell gets the value as yaegi holds it in an `any`,
// and panic(nil) gives a *runtime.PanicNilError, as in Go.
//
// A panic that reflect raised while yaegi ran the cell's indexing, slicing,
// field access or call (a string or *reflect.ValueError of reflect's) or
// that yaegi raised for a failed type assertion becomes a runtime.Error in
// Go's words. (Such a panic looks the same when the cell called reflect
// itself, reflect.ValueOf(s).Index(9), which Go reports in reflect's words;
// by the time a deferred function runs, yaegi has recovered and re-raised
// the panic in every interpreted frame, so the stack no longer tells.)
func recovered(r any) any {
	switch v := r.(type) {
	case reflect.Value:
		if !v.IsValid() || v.Kind() == reflect.Interface && v.IsNil() {
			return new(runtime.PanicNilError)
		}
		if v.CanInterface() {
			return v.Interface()
		}
	case string:
		if text, ok := goRuntimeText(v); ok {
			return &goRuntimeError{text}
		}
	case *reflect.ValueError:
		if text, ok := goRuntimeText(v.Error()); ok && v.Kind == reflect.Invalid {
			return &goRuntimeError{text}
		}
	case error:
		if yaegiaccess.IsRunError(v) { // yaegi's error that carries a position (interp.cfgError)
			if text, _ := goRuntimeText(v.Error()); strings.HasPrefix(text, "interface conversion: ") {
				return &goRuntimeError{text}
			}
		}
	}
	return r
}

// rewriteRecovers rewrites every call of the builtin recover under n (see
// above) unless the cells declare a recover of their own: this cell's
// declarations ps, or an earlier cell's.
func (e *Engine) rewriteRecovers(n ast.Node, ps []*parsed) {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if x, ok := n.(ast.Expr); ok && isRecoverCall(x) {
			found = true
		}
		return !found
	})
	if !found || declaresRecover(ps) {
		return
	}
	e.state.Lock()
	_, mine := e.decls["recover"]
	e.state.Unlock()
	if mine {
		return
	}
	wrapRecovers(n)
}

// declaresRecover reports whether the declarations of ps name recover.
func declaresRecover(ps []*parsed) bool {
	for _, p := range ps {
		if p.file == nil {
			continue
		}
		for _, d := range p.file.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil && d.Name.Name == "recover" {
					return true
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					if v, ok := s.(*ast.ValueSpec); ok {
						for _, name := range v.Names {
							if name.Name == "recover" {
								return true
							}
						}
					}
				}
			}
		}
	}
	return false
}

// wrapRecovers rewrites every call of the builtin recover under n into
// __gocl_hook.Recover(recover()), in place. A call whose value is dropped
// (`defer func() { recover() }()`) is left as it is.
func wrapRecovers(n ast.Node) {
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ExprStmt:
			if isRecoverCall(n.X) {
				return false
			}
		case *ast.DeferStmt:
			if isRecoverCall(n.Call) { // recover is the deferred function: it stops nothing
				return false
			}
		case *ast.GoStmt:
			if isRecoverCall(n.Call) {
				return false
			}
		case *ast.CallExpr:
			if isRecoverCall(n) {
				pos := n.Pos()
				inner := &ast.CallExpr{Fun: n.Fun, Lparen: n.Lparen, Rparen: n.Rparen}
				n.Fun = &ast.SelectorExpr{X: &ast.Ident{NamePos: pos, Name: helperPrefix + "hook"},
					Sel: &ast.Ident{NamePos: pos, Name: "Recover"}}
				n.Args = []ast.Expr{inner}
				return false
			}
		}
		return true
	})
}

// isRecoverCall reports whether x is a call of the builtin recover (not of
// a function of the cell's that is called recover).
func isRecoverCall(x ast.Expr) bool {
	c, ok := unparen(x).(*ast.CallExpr)
	if !ok || len(c.Args) != 0 {
		return false
	}
	id, ok := unparen(c.Fun).(*ast.Ident)
	return ok && id.Name == "recover" && id.Obj == nil
}

// boundsError is __gocl_hook.Bounds: the run-time error of an index or
// slice expression out of range, in Go's words and with Go's numbers
// (runtime.boundsError), for the checks of yaegi_bounds.go. form is one of
// the bounds* forms, n the length or capacity, x, y and z the index or the
// bounds lo, hi, max (as int64, like the runtime's; bit i of unsigned says
// that the i-th was of an unsigned type). The check called it because a
// bound was out of range; it finds which one as Go's code does, in Go's
// order.
func boundsError(form, unsigned, n int, x, y, z int64) error {
	out := func(v int64) bool { return uint64(v) > uint64(n) }
	switch form {
	case boundsIndex:
		return boundsText("index out of range [%x] with length %y", "index out of range [%x]", x, unsigned&1 == 0, int64(n))
	case boundsSliceCap, boundsSliceLen:
		with := map[int]string{boundsSliceCap: "capacity", boundsSliceLen: "length"}[form]
		if out(y) {
			return boundsText("slice bounds out of range [:%x] with "+with+" %y", "slice bounds out of range [:%x]", y, unsigned&2 == 0, int64(n))
		}
		return boundsText("slice bounds out of range [%x:%y]", "slice bounds out of range [%x:]", x, unsigned&1 == 0, y)
	case boundsSlice3Cap, boundsSlice3Len:
		with := map[int]string{boundsSlice3Cap: "capacity", boundsSlice3Len: "length"}[form]
		switch {
		case out(z):
			return boundsText("slice bounds out of range [::%x] with "+with+" %y", "slice bounds out of range [::%x]", z, unsigned&4 == 0, int64(n))
		case uint64(y) > uint64(z):
			return boundsText("slice bounds out of range [:%x:%y]", "slice bounds out of range [:%x:]", y, unsigned&2 == 0, z)
		}
		return boundsText("slice bounds out of range [%x:%y:]", "slice bounds out of range [%x::]", x, unsigned&1 == 0, y)
	}
	return &goRuntimeError{"runtime error: index out of range"}
}

// boundsText is runtime.boundsError.Error: format with x and y, or neg
// (which leaves y out) when x is signed and negative; an unsigned x is
// written as the unsigned value it holds.
func boundsText(format, neg string, x int64, signed bool, y int64) error {
	if signed && x < 0 {
		format = neg
	}
	xs := strconv.FormatInt(x, 10)
	if !signed {
		xs = strconv.FormatUint(uint64(x), 10)
	}
	text := strings.NewReplacer("%x", xs, "%y", strconv.FormatInt(y, 10)).Replace(format)
	return &goRuntimeError{"runtime error: " + text}
}

var passRecovers = pass{
	name:     "recovers",
	bug:      "run-time panics reach recover in reflect's or yaegi's words, not Go's (\"reflect: slice index out of range\")",
	file:     "yaegi_panics.go",
	reads:    needSession,
	changes:  "calls of the builtin recover",
	userOnly: true,
	chunk: func(c *cellRun, p *parsed) {
		if n := p.node(); n != nil {
			c.e.rewriteRecovers(n, c.ps)
		}
	},
}
