package engine

import (
	"encoding/base64"
	"fmt"
	"reflect"
	"strings"
	"time"

	"github.com/traefik/yaegi/interp"

	"github.com/seed43a1e1ab/gocl/kernel/cellctx"
	"github.com/seed43a1e1ab/gocl/kernel/display"
	"github.com/seed43a1e1ab/gocl/kernel/internal/yaegiaccess"
)

// helperPrefix starts the names the engine defines in the interpreter; Scope
// hides them.
const helperPrefix = "__gocl_"

// hookPath is the import path of the engine's private binary package.
const hookPath = "gocl.engine/hook"

// displayPath is the import path of the display package cells use.
const displayPath = "github.com/seed43a1e1ab/gocl/kernel/display"

// builtinSource defines Go 1.21's min and max (its type parameter has an
// engine name: yaegi leaks a generic function's type parameter names into
// the package scope, so a cell's own `type T int` then failed), which yaegi v0.16.1 lacks, as
// generic functions over the ordered types. A NaN argument makes the result
// NaN, as the builtins do. Unlike the builtins, untyped constants of mixed
// kinds (min(1, 2.5)) take the first argument's type, so they fail to
// compile; write min(1.0, 2.5). Cells may still declare their own min and max.
const builtinSource = `
func min[__gocl_T ~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr | ~float32 | ~float64 | ~string](x __gocl_T, y ...__gocl_T) __gocl_T {
	for _, v := range y {
		if x != x {
			return x
		}
		if v != v || v < x {
			x = v
		}
	}
	return x
}

func max[__gocl_T ~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr | ~float32 | ~float64 | ~string](x __gocl_T, y ...__gocl_T) __gocl_T {
	for _, v := range y {
		if x != x {
			return x
		}
		if v != v || v > x {
			x = v
		}
	}
	return x
}

// clear is Go 1.21's builtin for maps and slices, done by reflection.
func clear(x any) { __gocl_hook.Clear(x) }
`

// builtinNames are the names builtinSource declares: builtins to the user,
// not declarations of theirs.
var builtinNames = []string{"min", "max", "clear"}

// helperSource is compiled in every interpreter. The show helpers run in
// interpreted code so that methods of interpreted types are seen (yaegi gives
// compiled code no access to them). yaegi v0.16.1 fails the comma-ok
// assertion on interpreted types with methods, and its type switch panics
// ("method not found") for some of them: each check is a type switch under
// recover.
const helperSource = `
import __gocl_hook "gocl.engine/hook"

func __gocl_at(i int) { __gocl_hook.At(i) }

// __gocl_match answers a type switch's case for v by reflection when v's
// type is a compiled package's; known is false otherwise, and the switch
// asks yaegi (see yaegi_typeswitch.go).
func __gocl_match(v any, typ any) (bool, bool) { return __gocl_hook.Matches(v, typ) }

// __gocl_unwrapped is the cell's value a yaegi wrapper holds (an error or
// fmt.Stringer made of a cell's value), else v (see yaegi_typeswitch.go).
func __gocl_unwrapped(v any) any {
	if v == nil {
		return nil // (a nil v returned as is fails the assertion after it)
	}
	if __gocl_hook.IsWrapper(v) {
		return __gocl_hook.Unwrap(v)
	}
	if __gocl_hook.IsBox(v) { // (a value kept whole for yaegi: yaegi_valerr.go)
		return __gocl_hook.Unboxed(v)
	}
	return v
}

// __gocl_boxdyn hands v, of interface type id, to compiled code with its
// dynamic cell type, asked in interpreted code, where yaegi still knows it.
// The engine declares it again, with a type switch over the session's types,
// in the cells that need it (crossing_desc.go).
func __gocl_boxdyn(v any, id int) any { return __gocl_hook.BoxAs(v, -1, id) }

// __gocl_bare reports whether v holds a cell's value bare, without the
// type yaegi keeps beside it (see yaegi_typeswitch.go).
func __gocl_bare(v any) bool { return v != nil && __gocl_hook.IsBare(v) }

func __gocl_show1(v any) {
	rich, text := __gocl_richOf(v)
	__gocl_hook.Emit(v, text, rich)
}

// __gocl_show1t is __gocl_show1 for a value of a cell's type whose text
// compiled fmt would get wrong: id numbers its static type (crossing.go).
func __gocl_show1t(v any, id int) {
	rich, text := __gocl_richOf(v)
	if text == "" {
		text = __gocl_hook.BoxText(v, id)
	}
	__gocl_hook.Emit(v, text, rich)
}

// __gocl_richOf calls v's rich-output methods and its String or Error.
func __gocl_richOf(v any) (map[string]any, string) {
	rich := map[string]any{}
	if s, ok := __gocl_html(v); ok {
		rich["text/html"] = s
	}
	if s, ok := __gocl_markdown(v); ok {
		rich["text/markdown"] = s
	}
	if s, ok := __gocl_svg(v); ok {
		rich["image/svg+xml"] = s
	}
	if b, ok := __gocl_png(v); ok {
		rich["image/png"] = b
	}
	if b, ok := __gocl_jpeg(v); ok {
		rich["image/jpeg"] = b
	}
	text := ""
	if s, ok := v.(string); ok {
		text = fmt.Sprintf("%q", s)
	} else if s, ok := __gocl_error(v); ok {
		text = s
	} else if s, ok := __gocl_string(v); ok {
		text = s
	}
	return rich, text
}

func __gocl_html(v any) (r string, ok bool) {
	defer func() { recover() }()
	switch h := v.(type) {
	case interface{ HTML() string }:
		return h.HTML(), true
	}
	return
}

func __gocl_markdown(v any) (r string, ok bool) {
	defer func() { recover() }()
	switch h := v.(type) {
	case interface{ Markdown() string }:
		return h.Markdown(), true
	}
	return
}

func __gocl_svg(v any) (r string, ok bool) {
	defer func() { recover() }()
	switch h := v.(type) {
	case interface{ SVG() string }:
		return h.SVG(), true
	}
	return
}

func __gocl_png(v any) (r []byte, ok bool) {
	defer func() { recover() }()
	switch h := v.(type) {
	case interface{ PNG() []byte }:
		return h.PNG(), true
	}
	return
}

func __gocl_jpeg(v any) (r []byte, ok bool) {
	defer func() { recover() }()
	switch h := v.(type) {
	case interface{ JPEG() []byte }:
		return h.JPEG(), true
	}
	return
}

func __gocl_error(v any) (r string, ok bool) {
	defer func() { recover() }()
	switch h := v.(type) {
	case interface{ Error() string }:
		return h.Error(), true
	}
	return
}

func __gocl_string(v any) (r string, ok bool) {
	defer func() { recover() }()
	switch h := v.(type) {
	case interface{ String() string }:
		return h.String(), true
	}
	return
}

func __gocl_show2(a, b any) { __gocl_hook.EmitN(a, b) }

func __gocl_show3(a, b, c any) { __gocl_hook.EmitN(a, b, c) }
`

// overrides are the engine's own symbols: the cell's stdio, an os.Exit that
// stops the cell instead of the kernel, a time.Sleep that an interrupt
// cuts short, time.AfterFunc and context.AfterFunc that report a panic of
// their function instead of ending the kernel, and the hooks of the show
// helpers and of guarded go statements.
func (e *Engine) overrides() interp.Exports {
	ex := e.baseOverrides()
	addProcessOverrides(ex, e.in) // yaegi_process.go
	hooks, mapTypes := crossHooks(e.cross)
	for name, v := range hooks {
		ex[hookPath+"/hook"][name] = v
	}
	ex["."] = map[string]reflect.Value{"MapTypes": reflect.ValueOf(mapTypes)}
	return ex
}

func (e *Engine) baseOverrides() interp.Exports {
	return interp.Exports{
		"os/os": {
			"Stdin":  reflect.ValueOf(&e.stdin).Elem(),
			"Stdout": reflect.ValueOf(&cellStdout).Elem(),
			"Stderr": reflect.ValueOf(&cellStderr).Elem(),
			"Exit":   reflect.ValueOf(exitCell), // yaegi_process.go
		},
		"time/time": {
			"Sleep":     reflect.ValueOf(sleep),
			"AfterFunc": reflect.ValueOf(e.afterFunc),
		},
		"context/context": {
			"AfterFunc": reflect.ValueOf(e.contextAfterFunc),
		},
		hookPath + "/hook": {
			"Emit":      reflect.ValueOf(e.emit),
			"EmitN":     reflect.ValueOf(e.emitN),
			"GoPanic":   reflect.ValueOf(e.goPanic),
			"Rich":      reflect.ValueOf(richBundle),
			"IsHandle":  reflect.ValueOf(isHandle),
			"At":        reflect.ValueOf(markStmt),
			"Matches":   reflect.ValueOf(e.matchesType),
			"IsWrapper": reflect.ValueOf(isYaegiWrapper),
			"Unwrap":    reflect.ValueOf(unwrapYaegi),
			"IsBare":    reflect.ValueOf(isBare),
			"Clear":     reflect.ValueOf(clearValue),
			"Recover":   reflect.ValueOf(recoverNotExit), // yaegi_process.go, then recovered (yaegi_panics.go)
			"IsBox":     reflect.ValueOf(isBox),          // yaegi_ifaceeq.go
			"Unboxed":   reflect.ValueOf(unboxed),        // yaegi_valerr.go
			"SetVar":    reflect.ValueOf(e.setPkgVar),    // yaegi_pkgvars.go
			"OpVar":     reflect.ValueOf(e.opVar),
			"Bounds":    reflect.ValueOf(boundsError),
		},
	}
}

// sleep is time.Sleep for cells: it returns early when the cell is
// interrupted.
func sleep(d time.Duration) {
	if d <= 0 {
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-cellctx.Current().Done():
		if !cellctx.InRequest() {
			<-t.C // the interrupt is not for a goroutine a cell started
		}
	}
}

// emit receives one value's renderings from __gocl_show1.
func (e *Engine) emit(v any, text string, rich map[string]any) {
	if v != nil && reflect.TypeOf(v).Kind() == reflect.Func || isInterpretedFunc(v) {
		text = "func"
		if !isInterpretedFunc(v) {
			text = reflect.TypeOf(v).String()
		}
	}
	// Compiled types: their methods are plain Go methods, display.BundleOf
	// finds them. Interpreted types: the helper found them (rich, text).
	b := display.BundleOf(unwrap(v))
	if text != "" {
		b[display.MIMEText] = text
	}
	for mime, data := range rich {
		switch d := data.(type) {
		case []byte:
			b[mime] = base64.StdEncoding.EncodeToString(d)
		default:
			b[mime] = d
		}
	}
	e.result.Store(&b)
}

// unwrap returns the value inside yaegi's wrapper for a value of an
// interpreted type with methods (interp.valueInterface{node, value}), which
// fmt would otherwise print as pointers.
func unwrap(v any) any {
	for i := 0; i < 4; i++ {
		inner, ok := yaegiaccess.Unwrap(v)
		if !ok {
			return v
		}
		v = inner
	}
	return v
}

// isInterpretedFunc reports whether v is an interpreted func value that
// reached compiled code as yaegi's node, not as a Go func.
func isInterpretedFunc(v any) bool {
	return yaegiaccess.IsFuncNode(v)
}

// emitN receives a call's several results. The results of a write, (int,
// error) with a nil error, show nothing; others show as Println would, with
// strings quoted.
func (e *Engine) emitN(vs ...any) {
	if len(vs) == 2 && vs[1] == nil {
		if _, ok := vs[0].(int); ok {
			return
		}
	}
	parts := make([]string, len(vs))
	for i, v := range vs {
		switch x := v.(type) {
		case string:
			parts[i] = fmt.Sprintf("%q", x)
		default:
			parts[i] = fmt.Sprintf("%v", unwrap(x))
			if isInterpretedFunc(v) {
				parts[i] = "func"
			}
		}
	}
	e.result.Store(&display.Bundle{display.MIMEText: strings.Join(parts, " ")})
}

// clearValue is the clear builtin: it deletes a map's entries, or sets a
// slice's elements to their zero value.
func clearValue(x any) {
	v := reflect.ValueOf(x)
	switch v.Kind() {
	case reflect.Map:
		v.Clear()
	case reflect.Slice:
		v.Clear()
	default:
		panic(fmt.Sprintf("invalid argument: clear(%T): the argument must be a map or a slice", x))
	}
}
