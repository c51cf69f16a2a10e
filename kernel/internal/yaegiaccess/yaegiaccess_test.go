package yaegiaccess

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/traefik/yaegi/interp"
)

// probe is an interpreter whose cells may call probe.Probe(values...) and
// probe.Started(), which record the values and signal started.
type probe struct {
	*interp.Interpreter
	got     []any
	started chan struct{}
}

func newProbe(t *testing.T) *probe {
	t.Helper()
	p := &probe{Interpreter: interp.New(interp.Options{}), started: make(chan struct{}, 1)}
	err := p.Use(interp.Exports{"probe/probe": {
		"Probe":   reflect.ValueOf(func(a ...any) { p.got = append(p.got, a...) }),
		"Started": reflect.ValueOf(func() { p.started <- struct{}{} }),
	}})
	if err != nil {
		t.Fatal(err)
	}
	p.eval(t, `import "probe"`)
	return p
}

func (p *probe) eval(t *testing.T, src string) {
	t.Helper()
	if _, err := p.Eval(src); err != nil {
		t.Fatalf("%s: %v", src, err)
	}
}

// probed runs the cell declarations decls, then call, and returns what
// call handed probe.Probe.
func probed(t *testing.T, decls, call string) []any {
	t.Helper()
	p := newProbe(t)
	p.eval(t, decls)
	p.eval(t, call)
	return p.got
}

func TestValueInterface(t *testing.T) {
	got := probed(t, `
type Level int
func (l Level) String() string { return "lvl" }
func run() { var x any = Level(3); probe.Probe(x) }`, "run()")
	if len(got) != 1 {
		t.Fatalf("probe got %d values, want 1", len(got))
	}
	v := got[0]
	tv := reflect.TypeOf(v)
	if !IsValueInterface(tv) {
		t.Fatalf("yaegi handed compiled code a cell's named int with methods, in an any, as %v, not its valueInterface: "+
			"interp.valueInterface (run.go) changed; result.go, crossing.go, yaegi_typeswitch.go and cellvalue rely on it", tv)
	}
	if tv.PkgPath() != InterpPath || tv.Name() != "valueInterface" {
		t.Errorf("valueInterface is %s.%s, want %s.valueInterface: InterpPath is wrong", tv.PkgPath(), tv.Name(), InterpPath)
	}
	inner, ok := ValueInterfaceValue(reflect.ValueOf(v))
	if !ok || !inner.IsValid() || inner.Kind() != reflect.Int || inner.Int() != 3 {
		t.Fatalf("ValueInterfaceValue = %v, %v; want the int 3: interp.valueInterface's field value changed", inner, ok)
	}
	if u, ok := Unwrap(v); !ok || u != any(3) {
		t.Errorf("Unwrap = %#v, %v; want 3, true", u, ok)
	}

	// Not one: a plain value, and one read from an unexported field.
	if IsValueInterface(reflect.TypeOf(3)) {
		t.Error("IsValueInterface(int) is true")
	}
	if _, ok := ValueInterfaceValue(reflect.ValueOf(3)); ok {
		t.Error("ValueInterfaceValue(3) is ok")
	}
	if _, ok := Unwrap(3); ok {
		t.Error("Unwrap(3) is ok")
	}
	if _, ok := ValueInterfaceValue(reflect.Value{}); ok {
		t.Error("ValueInterfaceValue of the zero Value is ok")
	}
	hidden := reflect.ValueOf(struct{ v any }{v}).Field(0).Elem()
	if _, ok := ValueInterfaceValue(hidden); ok {
		t.Error("ValueInterfaceValue read a valueInterface from an unexported field")
	}
}

func TestFuncNode(t *testing.T) {
	got := probed(t, `
func sq(x int) int { return x * x }
func show(v any) { probe.Probe(v) }
func run() { show(sq) }`, "run()")
	if len(got) != 1 || !IsFuncNode(got[0]) {
		t.Fatalf("yaegi handed compiled code an interpreted func, passed through an any parameter, as %T, not as its *interp.node: "+
			"result.go shows it as \"func\" by that", got)
	}
	if IsFuncNode(func() {}) || IsFuncNode(nil) || IsFuncNode(3) {
		t.Error("IsFuncNode is true for a compiled func, nil or an int")
	}
}

func TestRunError(t *testing.T) {
	got := probed(t, `
func f() (r any) { defer func() { r = recover() }(); var x any = 1; _ = x.(string); return nil }`, "probe.Probe(f())")
	err, _ := got[0].(error)
	if err == nil || !IsRunError(err) || !strings.Contains(err.Error(), "interface conversion: interface {} is int, not string") {
		t.Fatalf("a failed type assertion of interpreted code panicked with %T %v, not yaegi's *interp.cfgError "+
			"with Go's interface conversion text: yaegi_panics.go's recovered relies on it", got[0], got[0])
	}
	if IsRunError(errors.New("x")) || IsRunError(nil) {
		t.Error("IsRunError is true for errors.New's error or nil")
	}
}

// stops runs call in p and fails unless it returns once Stop is called,
// after it called probe.Started.
func stops(t *testing.T, p *probe, call, what string) {
	t.Helper()
	Arm(p.Interpreter)
	done := make(chan error, 1)
	go func() {
		_, err := p.Eval(call)
		done <- err
	}()
	<-p.started
	id := p.RunID()
	Stop(p.Interpreter)
	if got := p.RunID(); got != id+1 {
		t.Errorf("Stop made the run id %d, want %d: interp.Interpreter.id changed", got, id+1)
	}
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatalf("%s did not stop 10s after Stop: %s", call, what)
	}
}

func TestStopEndsLoop(t *testing.T) {
	p := newProbe(t)
	p.eval(t, `func spin() { probe.Started(); for {} }`)
	stops(t, p, "spin()", "a frame no longer ends when interp.Interpreter.id is bumped")
}

func TestStopWakesChannelOperation(t *testing.T) {
	p := newProbe(t)
	Arm(p.Interpreter) // before the code is compiled: yaegi reads cancelChan then
	p.eval(t, `func block() { c := make(chan int); probe.Started(); <-c }`)
	stops(t, p, "block()", "a channel operation no longer wakes when Arm set interp.Interpreter.cancelChan and Stop closed interp.Interpreter.done")
}

func TestReopen(t *testing.T) {
	p := newProbe(t)
	Arm(p.Interpreter)
	Stop(p.Interpreter)
	Reopen(p.Interpreter)
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("Stop after Reopen: %v: Reopen no longer gives interp.Interpreter.done a fresh channel", r)
		}
	}()
	Stop(p.Interpreter)
	// The interpreter still runs code, and its channel operations work.
	p.eval(t, `func ping() { c := make(chan int, 1); c <- 4; probe.Probe(<-c) }`)
	Reopen(p.Interpreter)
	p.eval(t, "ping()")
	if len(p.got) != 1 || p.got[0] != any(4) {
		t.Errorf("after Stop and Reopen a channel round trip gave %v, want [4]", p.got)
	}
}
