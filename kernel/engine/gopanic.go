package engine

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"time"
)

// goPanic is __gocl_hook.GoPanic, deferred by every go statement of a cell
// (see gostmt.go) with the statement's position and recover's value. It
// reports a panic on stderr, which reaches the running cell or, between
// cells, the next one. It must not panic itself: nothing above it recovers.
func (e *Engine) goPanic(cell string, line, col int, r any) {
	if r == nil {
		return
	}
	defer func() {
		if r2 := recover(); r2 != nil {
			writeStderr(fmt.Sprintf("panic in a goroutine started by %s (its value could not be shown: %v); "+
				"the goroutine stopped, the kernel keeps running\n", cellLabel(cell), r2))
		}
	}()
	where := fmt.Sprintf("%s, line %d", cellLabel(cell), line)
	e.state.Lock()
	src, ok := e.files[cell]
	e.state.Unlock()
	if ok {
		if text := strings.TrimSpace(sourceLine(src, line)); text != "" {
			where += fmt.Sprintf(" (%s)", text)
		}
	}
	writeStderr(goPanicMessage("goroutine started by "+where, r))
}

// goPanicMessage is the report of a recovered panic value r in the place
// described by where. The first line names the panic as a cell's traceback
// would (the value's ErrorName() when it has one); the value's other lines
// follow.
func goPanicMessage(where string, r any) string {
	v := panicValue(r)
	name := "panic"
	if n, ok := v.(interface{ ErrorName() string }); ok {
		name = n.ErrorName()
	}
	text := "panic called with nil argument"
	if v != nil {
		text = strings.TrimRight(panicText(v), "\n")
	}
	first, rest, _ := strings.Cut(text, "\n")
	if goText, ok := goRuntimeText(first); ok {
		first = goText // Go's words, not reflect's (yaegi_panics.go)
	}
	msg := fmt.Sprintf("%s in a %s: %s (goroutine stopped; the kernel keeps running)\n", name, where, first)
	if rest != "" {
		msg += rest + "\n"
	}
	return msg
}

// panicValue returns what a cell panicked with. yaegi hands interpreted
// panics over as a reflect.Value (sometimes of its wrapper for values of
// interpreted types); a panic(nil) becomes the nil it was.
func panicValue(r any) any {
	for i := 0; i < 4; i++ {
		rv, ok := r.(reflect.Value)
		if !ok {
			break
		}
		if !rv.IsValid() || !rv.CanInterface() {
			return nil
		}
		if rv.Kind() == reflect.Interface && rv.IsNil() {
			return nil
		}
		r = rv.Interface()
	}
	return unwrap(r)
}

// writeStderr writes to fd 2, the captured stderr of the cells.
func writeStderr(s string) {
	if _, err := writeAll(2, []byte(s)); err != nil {
		fmt.Fprintf(OriginalStderr(), "gocl: %s", s)
	}
}

// afterFunc is time.AfterFunc for cells: f runs on a timer goroutine, so a
// panic in it is reported like one in a goroutine a go statement started.
func (e *Engine) afterFunc(d time.Duration, f func()) *time.Timer {
	cell := e.runningCell()
	return time.AfterFunc(d, func() {
		defer e.recoverCallback(cell, "time.AfterFunc")
		f()
	})
}

// contextAfterFunc is context.AfterFunc for cells, guarded as afterFunc.
func (e *Engine) contextAfterFunc(ctx context.Context, f func()) (stop func() bool) {
	cell := e.runningCell()
	return context.AfterFunc(ctx, func() {
		defer e.recoverCallback(cell, "context.AfterFunc")
		f()
	})
}

func (e *Engine) recoverCallback(cell, via string) {
	r := recover()
	if r == nil {
		return
	}
	defer func() { recover() }()
	writeStderr(goPanicMessage(fmt.Sprintf("function that %s passed to %s", cellLabel(cell), via), r))
}

// runningCell names the cell that runs now (or ran last).
func (e *Engine) runningCell() string {
	if p := e.current.Load(); p != nil {
		return *p
	}
	return "gocl"
}
