package direct

import (
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"

	"github.com/seed43a1e1ab/gocl/clapi"
)

// viaReflect reports whether reflect.Value.Call is on the caller's stack.
func viaReflect() bool {
	pc := make([]uintptr, 64)
	frames := runtime.CallersFrames(pc[:runtime.Callers(2, pc)])
	for {
		f, more := frames.Next()
		if strings.HasPrefix(f.Function, "reflect.Value.") {
			return true
		}
		if !more {
			return false
		}
	}
}

// newInterp makes an interpreter that knows cl's copy and a fake of its
// signature, which records its arguments and how it was called.
func newInterp(t *testing.T, got *[]string) *interp.Interpreter {
	t.Helper()
	i := interp.New(interp.Options{})
	if err := i.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	fake := func(q *clapi.Queue, dst, src any, opts ...clapi.Option) *clapi.Event {
		*got = append(*got, fmt.Sprintf("q=%v dst=%v src=%v opts=%v reflect=%v", q != nil, dst, src, opts, viaReflect()))
		return nil
	}
	if err := i.Use(interp.Exports{"cl/cl": {
		"EnqueueCopy": reflect.ValueOf(clapi.EnqueueCopy),
		"Fake":        reflect.ValueOf(fake),
		"NonBlocking": reflect.ValueOf(&clapi.NonBlocking).Elem(),
		"ByteCount":   reflect.ValueOf(clapi.ByteCount),
		"Queue":       reflect.ValueOf((*clapi.Queue)(nil)),
		"Option":      reflect.ValueOf((*clapi.Option)(nil)),
		"Q":           reflect.ValueOf(func() *clapi.Queue { return new(clapi.Queue) }),
	}}); err != nil {
		t.Fatal(err)
	}
	if _, err := i.Eval(`import ("time"; "cl")`); err != nil {
		t.Fatal(err)
	}
	return i
}

// TestDirectCallArguments checks that the direct caller passes a cell's
// arguments as reflect.Value.Call does (options one by one, from variables
// and from calls, untyped nil, values of interface type), without reflect.
func TestDirectCallArguments(t *testing.T) {
	var got []string
	i := newInterp(t, &got)
	src := `
q := cl.Q()
var a any = []float64{1, 2}
o := cl.ByteCount(8)
cl.Fake(q, a, nil)
cl.Fake(q, 7, "s", cl.NonBlocking)
cl.Fake(q, a, a, o, cl.ByteCount(16))
opts := []cl.Option{cl.NonBlocking}
cl.Fake(q, 1, 2, opts...)
`
	for _, on := range []bool{false, true} {
		got = nil
		interp.SetDirectCalls(on)
		if _, err := i.Eval(src); err != nil {
			t.Fatal(err)
		}
		want := []string{
			"q=true dst=[1 2] src=<nil> opts=[] reflect=R",
			"q=true dst=7 src=s opts=[cl.NonBlocking] reflect=R",
			"q=true dst=[1 2] src=[1 2] opts=[cl.ByteCount(8) cl.ByteCount(16)] reflect=R",
			"q=true dst=1 src=2 opts=[cl.NonBlocking] reflect=true", // a slice passed on: always reflect.Value.CallSlice
		}
		for k := range want[:3] {
			want[k] = strings.Replace(want[k], "reflect=R", fmt.Sprintf("reflect=%v", !on), 1)
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("direct calls %v: got\n%s\nwant\n%s", on, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
	interp.SetDirectCalls(true)
}

// TestDirectCallPanics checks that clapi's refusals reach the cell as the
// same *clapi.Error either way.
func TestDirectCallPanics(t *testing.T) {
	var got []string
	i := newInterp(t, &got)
	if _, err := i.Eval(`import "fmt"
func try(f func()) (s string) {
	defer func() { s = fmt.Sprint(recover()) }()
	f()
	return
}`); err != nil {
		t.Fatal(err)
	}
	src := `
nq := (*cl.Queue)(nil)
r1 := try(func() { cl.EnqueueCopy(nq, []float64{1}, []float64{1}) })
r2 := try(func() { cl.EnqueueCopy(cl.Q(), 1, 2, cl.NonBlocking) })
r1 + "|" + r2
`
	var out []string
	for _, on := range []bool{false, true} {
		interp.SetDirectCalls(on)
		v, err := i.Eval(src)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, v.String())
	}
	interp.SetDirectCalls(true)
	if out[0] != out[1] || !strings.Contains(out[0], "both arguments are host memory") {
		t.Errorf("reflect: %q\ndirect: %q", out[0], out[1])
	}
}

// TestDirectClock checks time.Now and time.Since through the direct callers.
func TestDirectClock(t *testing.T) {
	var got []string
	i := newInterp(t, &got)
	v, err := i.Eval(`start := time.Now(); time.Sleep(2 * time.Millisecond); time.Since(start)`)
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Duration(v.Int()); d < 2*time.Millisecond || d > 2*time.Second {
		t.Errorf("time.Since = %v", d)
	}
}
