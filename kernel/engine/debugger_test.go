package engine

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// dap drives an engine's debugger as the kernel does.
type dap struct {
	t      *testing.T
	e      *Engine
	seq    int
	events chan map[string]any
}

func newDAP(t *testing.T, e *Engine) *dap {
	d := &dap{t: t, e: e, events: make(chan map[string]any, 100)}
	e.SetDebugEvents(func(b json.RawMessage) {
		var m map[string]any
		_ = json.Unmarshal(b, &m)
		d.events <- m
	})
	return d
}

func (d *dap) req(cmd string, args any) map[string]any {
	d.t.Helper()
	d.seq++
	b, _ := json.Marshal(map[string]any{"seq": d.seq, "type": "request", "command": cmd, "arguments": args})
	out, err := d.e.Debug(context.Background(), b)
	if err != nil {
		d.t.Fatalf("%s: %v", cmd, err)
	}
	var m map[string]any
	if err := json.Unmarshal(out, &m); err != nil {
		d.t.Fatalf("%s: reply %s: %v", cmd, out, err)
	}
	return m
}

func (d *dap) ok(cmd string, args any) map[string]any {
	d.t.Helper()
	m := d.req(cmd, args)
	if m["success"] != true {
		d.t.Fatalf("%s failed: %v", cmd, m)
	}
	body, _ := m["body"].(map[string]any)
	return body
}

func (d *dap) waitEvent(name string) map[string]any {
	d.t.Helper()
	timeout := time.After(20 * time.Second)
	for {
		select {
		case ev := <-d.events:
			if ev["event"] == name {
				body, _ := ev["body"].(map[string]any)
				return body
			}
		case <-timeout:
			d.t.Fatalf("no %s event", name)
		}
	}
}

// stopLine is the line of the top frame of thread 1.
func (d *dap) top() map[string]any {
	d.t.Helper()
	frames := d.ok("stackTrace", map[string]any{"threadId": 1})["stackFrames"].([]any)
	return frames[0].(map[string]any)
}

func (d *dap) locals(frameID any) map[string]string {
	d.t.Helper()
	scopes := d.ok("scopes", map[string]any{"frameId": frameID})["scopes"].([]any)
	ref := scopes[0].(map[string]any)["variablesReference"]
	vars := d.ok("variables", map[string]any{"variablesReference": ref})["variables"].([]any)
	out := map[string]string{}
	for _, v := range vars {
		m := v.(map[string]any)
		out[m["name"].(string)] = m["value"].(string)
	}
	return out
}

func TestDebuggerStopsStepsAndContinues(t *testing.T) {
	e := newEngine(t)
	d := newDAP(t, e)
	d.ok("initialize", map[string]any{"clientID": "test"})
	d.ok("attach", nil)
	ok(t, e, "func add(a, b int) int {\n\tc := a + b\n\treturn c\n}")
	code := "x := 2\ny := add(x, 3)\nz := y * 10\nfmt.Println(x, y, z)"
	path := d.ok("dumpCell", map[string]any{"code": code})["sourcePath"].(string)
	bps := d.ok("setBreakpoints", map[string]any{"source": map[string]any{"path": path},
		"breakpoints": []any{map[string]any{"line": 2}}})["breakpoints"].([]any)
	if bp := bps[0].(map[string]any); bp["verified"] != true || bp["line"] != 2.0 {
		t.Fatalf("breakpoint: %v", bp)
	}
	d.ok("configurationDone", nil)
	done := make(chan string)
	go func() {
		e.DebugCellSource(code)
		_, r := ok(t, e, code)
		done <- r.text("stdout")
	}()
	if r := d.waitEvent("stopped")["reason"]; r != "breakpoint" {
		t.Fatalf("stopped for %v", r)
	}
	top := d.top()
	if top["line"] != 2.0 || top["source"].(map[string]any)["path"] != path {
		t.Fatalf("top frame %v, want line 2 of %s", top, path)
	}
	d.ok("stepIn", map[string]any{"threadId": 1})
	d.waitEvent("stopped")
	top = d.top()
	if top["name"] != "add" || top["line"] != 2.0 {
		t.Fatalf("after stepIn: %v, want add at line 2 of its cell", top)
	}
	if got := d.locals(top["id"]); got["a"] != "2" || got["b"] != "3" {
		t.Fatalf("locals of add: %v", got)
	}
	d.ok("stepOut", map[string]any{"threadId": 1})
	d.waitEvent("stopped")
	d.ok("next", map[string]any{"threadId": 1})
	d.waitEvent("stopped")
	if top = d.top(); top["line"] != 3.0 && top["line"] != 4.0 {
		t.Fatalf("after next: %v", top)
	}
	d.ok("continue", map[string]any{"threadId": 1})
	select {
	case out := <-done:
		if out != "2 5 50\n" {
			t.Fatalf("output %q", out)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the cell did not end after continue")
	}
	vars := d.ok("inspectVariables", nil)["variables"].([]any)
	var names []string
	for _, v := range vars {
		names = append(names, v.(map[string]any)["name"].(string))
	}
	if !strings.Contains(strings.Join(names, " "), "z") {
		t.Fatalf("inspectVariables: %v", names)
	}
	d.ok("disconnect", nil)
	if m := d.req("noSuchCommand", nil); m["success"] != false {
		t.Fatalf("unknown command: %v", m)
	}
}

func TestDebuggerBreakableLines(t *testing.T) {
	code := "// a comment\n\nx := 1\nfunc f() {\n\tprintln(x)\n}\n"
	got := breakableLines(code)
	if len(got) != 2 || got[0] != 3 || got[1] != 5 {
		t.Fatalf("breakable lines %v, want [3 5]", got)
	}
	if l, ok := nextBreakable(got, 1); !ok || l != 3 {
		t.Fatalf("line 1 moves to %d %v, want 3", l, ok)
	}
	if _, ok := nextBreakable(got, 6); ok {
		t.Fatal("line 6 has no statement at or after it")
	}
}

func TestMurmur2MatchesIpykernel(t *testing.T) {
	// ipykernel's compiler.murmur2_x86, which hashes as JupyterLab does.
	for s, want := range map[string]uint32{
		"":      3990065800,
		"a = 1": 3780943274,
		"def f(a, b):\n    c = a + b\n    return c\n\nf(2, 3)": 1440027060,
		"héllo wörld x": 521534360,
	} {
		if got := murmur2([]byte(s), 0xC70F6907); got != want {
			t.Errorf("murmur2(%q) = %d, want %d", s, got, want)
		}
	}
}

func TestDebuggerOutputWhileStarted(t *testing.T) {
	e := newEngine(t)
	d := newDAP(t, e)
	d.ok("initialize", map[string]any{"clientID": "test"})
	if _, r := ok(t, e, "x := 2\nfmt.Println(x)"); r.text("stdout") != "2\n" {
		t.Fatalf("output %q", r.text("stdout"))
	}
}

func TestDebuggerRefusesBreakpointsInCompiledCells(t *testing.T) {
	e := newEngine(t)
	d := newDAP(t, e)
	d.ok("initialize", nil)
	code := "//gocl:compile\nfunc Twice(x int) int {\n\treturn 2 * x\n}"
	path := d.ok("dumpCell", map[string]any{"code": code})["sourcePath"].(string)
	bps := d.ok("setBreakpoints", map[string]any{"source": map[string]any{"path": path},
		"breakpoints": []any{map[string]any{"line": 3}}})["breakpoints"].([]any)
	bp := bps[0].(map[string]any)
	if bp["verified"] != false || !strings.Contains(bp["message"].(string), "compiled") {
		t.Fatalf("a breakpoint in a compiled cell: %v", bp)
	}
}

// Func values made before the debugger started (closures over an earlier
// cell's frame, method values) run under it without failing.
func TestDebuggerRunsClosuresMadeBeforeItStarted(t *testing.T) {
	e := newEngine(t)
	ok(t, e, "mk := func() func() int { x := 1; return func() int { x++; return x } }\ninc := mk()\ntype T struct{ n int }\nfunc (t *T) Bump() int { t.n++; return t.n }\nvar tt T\nbump := tt.Bump")
	d := newDAP(t, e)
	d.ok("initialize", nil)
	d.ok("attach", nil)
	_, r := ok(t, e, "fmt.Println(inc(), bump())\nfmt.Println(inc())")
	if got := r.text("stdout"); got != "2 1\n3\n" {
		t.Fatalf("output %q", got)
	}
}
