package engine

import (
	"strings"
	"testing"
	"time"
)

// runAsync runs a cell on another goroutine (it stops in the debugger) and
// returns where its result arrives.
func runAsync(t *testing.T, e *Engine, code string) <-chan Result {
	t.Helper()
	done := make(chan Result, 1)
	go func() {
		e.DebugCellSource(code)
		r, _ := run(t, e, code)
		done <- r
	}()
	return done
}

func waitResult(t *testing.T, done <-chan Result) Result {
	t.Helper()
	select {
	case r := <-done:
		return r
	case <-time.After(20 * time.Second):
		t.Fatal("the cell did not end")
	}
	return Result{}
}

// noEvent fails if d receives the named event within a moment.
func (d *dap) noEvent(name string, within time.Duration) {
	d.t.Helper()
	timeout := time.After(within)
	for {
		select {
		case ev := <-d.events:
			if ev["event"] == name {
				d.t.Fatalf("unexpected %s event: %v", name, ev)
			}
		case <-timeout:
			return
		}
	}
}

func TestDebuggerStopsOnAPanicWhereItWasRaised(t *testing.T) {
	e := newEngine(t)
	d := newDAP(t, e)
	caps := d.ok("initialize", map[string]any{"clientID": "test"})
	filters := caps["exceptionBreakpointFilters"].([]any)
	if len(filters) != 1 || filters[0].(map[string]any)["filter"] != panicFilter {
		t.Fatalf("exceptionBreakpointFilters: %v", filters)
	}
	d.ok("attach", nil)
	bps := d.ok("setExceptionBreakpoints", map[string]any{"filters": []any{"panics", "raised"}})["breakpoints"].([]any)
	if bps[0].(map[string]any)["verified"] != true || bps[1].(map[string]any)["verified"] != false {
		t.Fatalf("setExceptionBreakpoints: %v", bps)
	}
	ok(t, e, "func at(xs []int, i int) int {\n\tv := xs[i]\n\treturn v\n}")
	code := "xs := []int{1, 2, 3}\ni := len(xs) + 1\nfmt.Println(at(xs, i))"
	done := runAsync(t, e, code)
	st := d.waitEvent("stopped")
	if st["reason"] != "exception" || !strings.Contains(st["text"].(string), "index out of range [4] with length 3") {
		t.Fatalf("stopped: %v", st)
	}
	frames := d.ok("stackTrace", map[string]any{"threadId": 1})["stackFrames"].([]any)
	top, caller := frames[0].(map[string]any), frames[1].(map[string]any)
	if top["name"] != "at" || top["line"] != 2.0 || caller["line"] != 3.0 {
		t.Fatalf("stack at the panic: %v", frames)
	}
	if got := d.locals(top["id"]); got["i"] != "4" || got["xs"] != "len 3: [1 2 3]" {
		t.Fatalf("locals where the panic was raised: %v", got)
	}
	info := d.ok("exceptionInfo", map[string]any{"threadId": 1})
	if info["breakMode"] != "unhandled" || !strings.Contains(info["description"].(string), "index out of range [4] with length 3") {
		t.Fatalf("exceptionInfo: %v", info)
	}
	d.ok("continue", map[string]any{"threadId": 1})
	r := waitResult(t, done)
	if r.Err == nil || !strings.Contains(r.Err.Error(), "index out of range [4] with length 3") {
		t.Fatalf("after continue the cell ends with the panic; it ended with %v", r.Err)
	}

	// A panic at a cell's top level stops at its line.
	done = runAsync(t, e, "var m map[string]int\nm[\"a\"] = 1\nfmt.Println(m)")
	if st := d.waitEvent("stopped"); st["reason"] != "exception" {
		t.Fatalf("stopped: %v", st)
	}
	if top := d.top(); top["line"] != 2.0 {
		t.Fatalf("top frame %v, want line 2", top)
	}
	d.ok("continue", map[string]any{"threadId": 1})
	if r := waitResult(t, done); r.Err == nil || !strings.Contains(r.Err.Error(), "nil map") {
		t.Fatalf("the cell ends with the panic; it ended with %v", r.Err)
	}
}

func TestDebuggerDoesNotStopOnRecoveredOrUnwatchedPanics(t *testing.T) {
	e := newEngine(t)
	d := newDAP(t, e)
	d.ok("initialize", nil)
	d.ok("attach", nil)
	d.ok("setExceptionBreakpoints", map[string]any{"filters": []any{"panics"}})
	ok(t, e, "func safe() (err error) {\n\tdefer func() {\n\t\tif r := recover(); r != nil {\n\t\t\terr = fmt.Errorf(\"recovered %v\", r)\n\t\t}\n\t}()\n\tpanic(\"boom\")\n}")
	r := waitResult(t, runAsync(t, e, "fmt.Println(safe())"))
	if r.Err != nil {
		t.Fatalf("a recovered panic: %v", r.Err)
	}
	d.noEvent("stopped", 300*time.Millisecond)

	// After a recovered one, an unrecovered panic still stops where it is raised.
	done := runAsync(t, e, "_ = safe()\nvar p *struct{ n int }\nfmt.Println(p.n)")
	if st := d.waitEvent("stopped"); st["reason"] != "exception" {
		t.Fatalf("stopped: %v", st)
	}
	if top := d.top(); top["line"] != 3.0 {
		t.Fatalf("top frame %v, want line 3", top)
	}
	d.ok("continue", map[string]any{"threadId": 1})
	waitResult(t, done)

	// Without the filter, a panic ends the cell without stopping.
	d.ok("setExceptionBreakpoints", map[string]any{"filters": []any{}})
	if r := waitResult(t, runAsync(t, e, "panic(\"no stop\")")); r.Err == nil {
		t.Fatal("panic(\"no stop\") did not fail")
	}
	d.noEvent("stopped", 300*time.Millisecond)
}
