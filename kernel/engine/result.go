package engine

import (
	"encoding/base64"
	"fmt"
	"reflect"
	"strings"
	"time"

	"github.com/traefik/yaegi/interp"

	"github.com/seed43a1e1ab/gocl/internal/cellctx"
	"github.com/seed43a1e1ab/gocl/kernel/display"
)

// helperPrefix starts the names the engine defines in the interpreter; Scope
// hides them.
const helperPrefix = "__gocl_"

// hookPath is the import path of the engine's private binary package.
const hookPath = "gocl.engine/hook"

// helperSource is compiled in every interpreter. The show helpers run in
// interpreted code so that methods of interpreted types are seen (yaegi gives
// compiled code no access to them); yaegi v0.16.1 handles the type switch
// form of these checks but not the comma-ok assertion.
const helperSource = `
import __gocl_hook "gocl.engine/hook"

func __gocl_show1(v any) {
	rich := map[string]any{}
	switch h := v.(type) {
	case interface{ HTML() string }:
		rich["text/html"] = h.HTML()
	}
	switch h := v.(type) {
	case interface{ Markdown() string }:
		rich["text/markdown"] = h.Markdown()
	}
	switch h := v.(type) {
	case interface{ SVG() string }:
		rich["image/svg+xml"] = h.SVG()
	}
	switch h := v.(type) {
	case interface{ PNG() []byte }:
		rich["image/png"] = h.PNG()
	}
	switch h := v.(type) {
	case interface{ JPEG() []byte }:
		rich["image/jpeg"] = h.JPEG()
	}
	text := ""
	switch h := v.(type) {
	case nil:
		text = "<nil>"
	case error:
		text = h.Error()
	case fmt.Stringer:
		text = h.String()
	case string:
		text = fmt.Sprintf("%q", h)
	default:
		text = fmt.Sprintf("%v", v)
	}
	__gocl_hook.Emit(v, text, rich)
}

func __gocl_show2(a, b any) { __gocl_hook.EmitN(a, b) }

func __gocl_show3(a, b, c any) { __gocl_hook.EmitN(a, b, c) }
`

// overrides are the engine's own symbols: the cell's stdio, an os.Exit that
// stops the cell instead of the kernel, a time.Sleep that an interrupt
// cuts short, and the show helpers' hooks.
func (e *Engine) overrides() interp.Exports {
	return interp.Exports{
		"os/os": {
			"Stdin":  reflect.ValueOf(&e.stdin).Elem(),
			"Stdout": reflect.ValueOf(&cellStdout).Elem(),
			"Stderr": reflect.ValueOf(&cellStderr).Elem(),
			"Exit":   reflect.ValueOf(func(code int) { panic(exitRequest(code)) }),
		},
		"time/time": {
			"Sleep": reflect.ValueOf(sleep),
		},
		hookPath + "/hook": {
			"Emit":  reflect.ValueOf(e.emit),
			"EmitN": reflect.ValueOf(e.emitN),
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
	b := display.Bundle{display.MIMEText: text}
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

func isInterpretedFunc(v any) bool {
	return v != nil && reflect.TypeOf(v).String() == "*interp.node"
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
			parts[i] = fmt.Sprintf("%v", x)
			if isInterpretedFunc(v) {
				parts[i] = "func"
			}
		}
	}
	e.result.Store(&display.Bundle{display.MIMEText: strings.Join(parts, " ")})
}
