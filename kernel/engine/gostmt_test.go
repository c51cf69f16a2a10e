package engine

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/traefik/yaegi/interp"
)

// reportTimeout is a hang guard for a goroutine's panic report, not a
// performance bound.
const reportTimeout = 20 * time.Second

// awaitStderr returns the stderr of r and of further cells (each a short
// sleep) until it contains want. Reports of goroutines reach whichever cell
// runs when they are written, so a test waits for every report it causes:
// none may leak into the next test's cells.
func awaitStderr(t *testing.T, e *Engine, r *recorder, wants ...string) string {
	t.Helper()
	got := r.text("stderr")
	deadline := time.Now().Add(reportTimeout)
	for _, want := range wants {
		for !strings.Contains(got, want) {
			if time.Now().After(deadline) {
				t.Fatalf("no %q on stderr (hang guard); got %q", want, got)
			}
			_, r2 := ok(t, e, "time.Sleep(5 * time.Millisecond)")
			got += r2.text("stderr")
		}
	}
	return got
}

// reportLine returns the line of s that contains want.
func reportLine(s, want string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, want) {
			return l
		}
	}
	return ""
}

// TestGoroutinePanicForms launches a panicking goroutine with every form of
// go statement; each is reported and the kernel (this process) survives.
func TestGoroutinePanicForms(t *testing.T) {
	e := newEngine(t, interp.Exports{"gocl.test/errs/errs": {"Fail": reflect.ValueOf(func() { panic(&richErr{}) })}})
	ok(t, e, `kept := 42
func boom(n int) { panic(fmt.Sprint("boom ", n)) }
func sum(xs ...int) { t := 0; for _, x := range xs { t += x }; panic(fmt.Sprint("sum ", t)) }
type counter struct{ n int }
func (c *counter) Boom(k int) { c.n += k; panic(fmt.Sprint("method ", c.n)) }
func (c counter) ValueBoom() { panic(fmt.Sprint("value method ", c.n)) }
func G[T any](x T) { panic(fmt.Sprint("generic ", x)) }
type fail struct{ why string }
func (f fail) Error() string { return f.why }
func launch() {
	go func() { panic("inside a declared func") }()
}
import "gocl.test/errs"`)
	cases := []struct{ code, want string }{
		{`go func() { panic("boom") }()`, `panic in a goroutine started by cell #%d, line 1 (go func() { panic("boom") }()): boom (goroutine stopped; the kernel keeps running)`},
		{"\n\tgo boom(1)", "panic in a goroutine started by cell #%d, line 2 (go boom(1)): boom 1 (goroutine stopped"},
		{`go func() { var xs []int; _ = xs[3] }()`, "panic in a goroutine started by cell #%d, line 1 (go func() { var xs []int; _ = xs[3] }()): runtime error: index out of range [3] with length 0 (goroutine stopped"},
		{`n := 2; go boom(n)`, "boom 2 ("},
		{`go func(s string) { panic(s) }("with argument")`, "): with argument ("},
		{`xs := []int{1, 2, 3}; go sum(xs...)`, "sum 6"},
		{`go sum(4, 5)`, "sum 9"},
		{`c := &counter{n: 10}; go c.Boom(5)`, "method 15"},
		{`cv := counter{n: 7}; go cv.ValueBoom()`, "value method 7"},
		{`var iface interface{ ValueBoom() } = counter{n: 8}; go iface.ValueBoom()`, "value method 8"},
		{`go G(3)`, "generic 3"},
		{`go G[string]("s")`, "generic s"},
		{`go panic("builtin panic")`, "builtin panic"},
		{`ch := make(chan int); close(ch); go close(ch)`, "close of closed channel"},
		{`fns := []func(int){boom}; go fns[0](4)`, "boom 4"},
		{`go func() { go func() { panic("nested") }() }()`, "nested"},
		{`switch { case kept > 0: go panic("in a case") }`, "in a case"},
		{`launch()`, "inside a declared func"},
		{`go panic(errors.New("an error value"))`, "): an error value ("},
		{`go errs.Fail()`, "OpenCLError in a goroutine started by cell #%d, line 1 (go errs.Fail()): CL_OUT_OF_RESOURCES (-5) in EnqueueNDRange (goroutine stopped; the kernel keeps running)\nhint: the kernel asked for too many registers"},
		{`go func() { var m map[string]int; m["x"] = 1 }()`, "assignment to entry in nil map"},
		{`go func() { panic(nil) }()`, "panic called with nil argument"},
		{`time.AfterFunc(time.Millisecond, func() { panic("timer") })`, "panic in a function that cell #%d passed to time.AfterFunc: timer (goroutine stopped"},
	}
	for _, c := range cases {
		seq := e.cellSeq + 1
		want := c.want
		if strings.Contains(want, "%d") {
			want = strings.ReplaceAll(want, "%d", itoa(seq))
		}
		_, r := ok(t, e, c.code)
		awaitStderr(t, e, r, want)
	}
	got, _ := ok(t, e, "kept")
	expect(t, "state after goroutine panics", got, "42")
}

// TestGoArgumentsEvaluatedAtGoStatement checks Go's rule: the function value
// and the arguments are evaluated by the go statement, not by the goroutine.
func TestGoArgumentsEvaluatedAtGoStatement(t *testing.T) {
	e := newEngine(t)
	ok(t, e, `func store(n int, gate chan bool, got chan int) { <-gate; got <- n }
func a(gate chan bool, got chan int) { <-gate; got <- 1 }
func b(gate chan bool, got chan int) { <-gate; got <- 2 }
type box struct{ v int }
func (p *box) put(gate chan bool, got chan int) { <-gate; got <- p.v }`)
	got, _ := ok(t, e, `gate := make(chan bool)
got := make(chan int, 3)
v := 1
go store(v, gate, got)
go store(v*10, gate, got)
fn := a
go fn(gate, got)
v, fn = 2, b
close(gate)
r := []int{<-got, <-got, <-got}
sort.Ints(r)
r`)
	expect(t, "values seen by the goroutines", got, "[1 1 10]")

	// The receive happens at the go statement, so the buffer is free.
	got, _ = ok(t, e, `vals := make(chan int, 1)
vals <- 7
gate = make(chan bool)
go store(<-vals, gate, got)
sent := false
select {
case vals <- 8:
	sent = true
default:
}
close(gate)
fmt.Sprint(sent, " ", <-got)`)
	expect(t, "argument received at the go statement", got, `"true 7"`)

	got, _ = ok(t, e, `gate = make(chan bool)
p := &box{v: 5}
go p.put(gate, got)
p = &box{v: 6}
close(gate)
<-got`)
	expect(t, "receiver pointer bound at the go statement", got, "5")

	// A pointer method of a variable holding a struct works on the variable.
	got, _ = ok(t, e, `func (p *box) inc(done chan bool) { p.v++; done <- true }
bv := box{v: 1}
done := make(chan bool)
go bv.inc(done)
<-done
var wg sync.WaitGroup
wg.Add(1)
go wg.Done()
wg.Wait()
bv.v`)
	expect(t, "pointer method on a struct variable", got, "2")

	// A receiver of interface type, declared with a named type, is bound
	// as a value (the rewrite's first guess, its address, does not compile).
	_, r := ok(t, e, `type sp struct{}
func (sp) String() string { panic("stringer panicked") }
var sv fmt.Stringer = sp{}
go sv.String()`)
	out := awaitStderr(t, e, r, "stringer panicked")
	if strings.Contains(out, "could not be guarded") {
		t.Errorf("interface receiver left unguarded: %q", out)
	}

	// Untyped constants keep their type from the called function.
	got, _ = ok(t, e, `const k = 3
func half(x float64, out chan float64) { out <- x / 2 }
fo := make(chan float64, 2)
go half(k, fo)
go half(1, fo)
<-fo + <-fo`)
	expect(t, "untyped constant arguments", got, "2")
}

// TestGoInLoops launches goroutines from loops; the results are those of
// compiled Go.
func TestGoInLoops(t *testing.T) {
	e := newEngine(t)
	ok(t, e, `func put(n int, out chan int) { out <- n }
func collect(out chan int, n int) []int {
	var r []int
	for i := 0; i < n; i++ { r = append(r, <-out) }
	sort.Ints(r)
	return r
}
type box struct{ v int }
func (b box) put(out chan int) { out <- b.v }
func (b *box) pput(out chan int) { out <- b.v }`)
	for _, c := range []struct{ code, want string }{
		{"out := make(chan int, 5)\nfor i := 0; i < 5; i++ { go put(i, out) }\ncollect(out, 5)", "[0 1 2 3 4]"},
		{"out := make(chan int, 5)\nfor i := 0; i < 5; i++ { go put(i*i, out) }\ncollect(out, 5)", "[0 1 4 9 16]"},
		{"out := make(chan int, 5)\nfor i := 0; i < 5; i++ { go func(n int) { out <- n }(i) }\ncollect(out, 5)", "[0 1 2 3 4]"},
		{"out := make(chan int, 3)\nfor _, s := range []string{\"a\", \"bb\", \"ccc\"} { go put(len(s), out) }\ncollect(out, 3)", "[1 2 3]"},
		{"out := make(chan int, 4)\nfns := []func(int, chan int){put, put}\nfor i, f := range fns { go f(i, out); go f(i+10, out) }\ncollect(out, 4)", "[0 1 10 11]"},
		{"out := make(chan int, 3)\nfor _, b := range []box{{1}, {2}, {3}} { go b.put(out) }\ncollect(out, 3)", "[1 2 3]"},
		{"out := make(chan int, 3)\nfor _, b := range []*box{{1}, {2}, {3}} { go b.pput(out) }\ncollect(out, 3)", "[1 2 3]"},
		{"out := make(chan int, 3)\nbs := []box{{1}, {2}, {3}}\nfor i := range bs { go bs[i].pput(out) }\ncollect(out, 3)", "[1 2 3]"},
	} {
		got, r := ok(t, e, c.code)
		expect(t, c.code, got, c.want)
		if strings.Contains(r.text("stderr"), "could not be guarded") {
			t.Errorf("%q: %s", c.code, r.text("stderr"))
		}
	}
	// Closures capture a fresh loop variable in each iteration (Go 1.22).
	for _, c := range []struct{ code, want string }{
		{"out := make(chan int, 5)\nfor i := 0; i < 5; i++ { go func() { out <- i }() }\ncollect(out, 5)", "[0 1 2 3 4]"},
		{"out := make(chan int, 3)\nfor _, s := range []string{\"a\", \"bb\", \"ccc\"} { go func() { out <- len(s) }() }\ncollect(out, 3)", "[1 2 3]"},
		{"var fs []func() int\nfor i := 0; i < 3; i++ { fs = append(fs, func() int { return i * 10 }) }\n[]int{fs[0](), fs[1](), fs[2]()}", "[0 10 20]"},
		{"var fs []func() int\nfor i, v := range []int{5, 6} { fs = append(fs, func() int { return i + v }) }\n[]int{fs[0](), fs[1]()}", "[5 7]"},
		// A body that steps the variable itself keeps working.
		{"var r []int\nfor i := 0; i < 10; i++ { r = append(r, i); i += 2 }\nr", "[0 3 6 9]"},
		{"n := 0\nfor i := 0; i < 4; i++ { if i == 1 { continue }; n += i }\nn", "5"},
	} {
		got, _ := ok(t, e, c.code)
		expect(t, c.code, got, c.want)
	}
	// Panics in goroutines started by a loop: one report each.
	_, r := ok(t, e, "for i := 0; i < 3; i++ { go func(n int) { panic(fmt.Sprint(\"worker \", n)) }(i) }")
	awaitStderr(t, e, r, "worker 0", "worker 1", "worker 2")
}

// TestGoroutinePanicBetweenCells makes a goroutine panic while no cell runs:
// the report waits for the next cell, and the engine keeps working.
func TestGoroutinePanicBetweenCells(t *testing.T) {
	release := make(chan struct{})
	e := newEngine(t, interp.Exports{"gocl.test/gate/gate": {"Wait": reflect.ValueOf(func() { <-release })}})
	ok(t, e, "import \"gocl.test/gate\"\nx := 7\ngo func() { gate.Wait(); panic(\"while idle\") }()")
	close(release)
	deadline := time.Now().Add(reportTimeout)
	for {
		errOut.mu.Lock()
		pending := string(errOut.pending)
		errOut.mu.Unlock()
		if strings.Contains(pending, "while idle") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the report never reached the pending stderr (hang guard); pending %q", pending)
		}
		time.Sleep(time.Millisecond)
	}
	got, r := ok(t, e, "x + 1")
	expect(t, "state after an idle panic", got, "8")
	line := reportLine(r.text("stderr"), "while idle")
	if !strings.HasPrefix(line, "panic in a goroutine started by cell #") || !strings.Contains(line, "the kernel keeps running") {
		t.Errorf("next cell's stderr: %q", r.text("stderr"))
	}
}

// TestGoGuardKeepsSemantics checks what the guard must not change: a
// goroutine's own recover, defers, and compile errors as the user wrote
// them.
func TestGoGuardKeepsSemantics(t *testing.T) {
	e := newEngine(t)
	_, r := ok(t, e, `done := make(chan string)
go func() {
	defer func() { done <- fmt.Sprint("recovered by the cell: ", recover()) }()
	defer fmt.Println("deferred ran")
	panic("own")
}()
fmt.Println(<-done)`)
	expect(t, "stdout", r.text("stdout"), "deferred ran\nrecovered by the cell: own\n")
	_, r = ok(t, e, `time.Sleep(20 * time.Millisecond)`)
	if strings.Contains(r.text("stderr"), "own") {
		t.Errorf("a panic the goroutine recovered itself was reported: %q", r.text("stderr"))
	}

	err := fails(t, e, "y := 1\n go undefinedFn(y)")
	expect(t, "compile error name", err.Name, "CompileError")
	if err.Value != "undefined: undefinedFn" || !strings.Contains(tb(err), "line 2, column") {
		t.Errorf("compile error of a go statement:\n%s", tb(err))
	}
	err = fails(t, e, `go fmt.Println(undefinedArg)`)
	if !strings.Contains(err.Value, "undefined: undefinedArg") {
		t.Errorf("compile error of a go argument:\n%s", tb(err))
	}

	// A multi-value call as the sole argument cannot be bound: the go
	// statement runs as written, with a note.
	got, r := ok(t, e, `func two() (int, string) { return 4, "four" }
func recv(n int, s string, out chan string) { out <- fmt.Sprint(n, s) }
out := make(chan string, 1)
func send(n int, s string) { out <- fmt.Sprint(n, s) }
go send(two())
<-out`)
	expect(t, "multi-value argument", got, `"4four"`)
	if !strings.Contains(r.text("stderr"), "the go statement at line 5 could not be guarded") {
		t.Errorf("no note for the unguarded go statement: %q", r.text("stderr"))
	}

	// Helper names stay out of Scope.
	for name := range e.Scope().Globals {
		if strings.HasPrefix(name, helperPrefix) {
			t.Errorf("Scope shows the rewrite's variable %s", name)
		}
	}
	// The final expression of a cell is guarded too.
	_, r = ok(t, e, `func() int { go panic("from the result"); return 1 }()`)
	awaitStderr(t, e, r, "from the result")
}

// TestCellPanicValues checks that values yaegi hands over wrapped show as
// Go prints them.
func TestCellPanicValues(t *testing.T) {
	e := newEngine(t)
	err := fails(t, e, `panic(errors.New("an error"))`)
	expect(t, "error value", err.Value, "an error")
	err = fails(t, e, `panic(fmt.Sprint(1, 2))`)
	expect(t, "string value", err.Value, "1 2")
	err = fails(t, e, `panic(nil)`)
	expect(t, "nil value", err.Value, "panic called with nil argument")
	ctx, cancel := context.WithTimeout(context.Background(), reportTimeout)
	defer cancel()
	if res := e.Execute(ctx, "1", &recorder{}); res.Err != nil {
		t.Fatal(tb(res.Err))
	}
}
