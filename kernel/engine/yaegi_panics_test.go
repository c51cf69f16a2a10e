package engine

import (
	"bytes"
	"go/parser"
	"go/printer"
	"go/token"
	"io"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// TestRecoveredGivesGoWords checks the hook on the values reflect and
// yaegi panic with, and on values a cell panicked with.
func TestRecoveredGivesGoWords(t *testing.T) {
	for _, c := range []struct {
		in   any
		want string
	}{
		{"reflect: slice index out of range", "runtime error: index out of range"},
		{"reflect: array index out of range", "runtime error: index out of range"},
		{"reflect.Value.Slice: slice index out of bounds", "runtime error: slice bounds out of range"},
		{&reflect.ValueError{Method: "reflect.Value.Field", Kind: reflect.Invalid}, "runtime error: invalid memory address or nil pointer dereference"},
		{"reflect.Value.Call: call of nil function", "runtime error: invalid memory address or nil pointer dereference"},
	} {
		got := recovered(c.in)
		re, ok := got.(runtime.Error)
		if !ok {
			t.Errorf("recovered(%#v) = %#v, not a runtime.Error", c.in, got)
			continue
		}
		expect(t, "text", re.Error(), c.want)
	}

	// Not reflect's panics of a cell's code: returned as they came.
	field := &reflect.ValueError{Method: "reflect.Value.Int", Kind: reflect.String}
	for _, v := range []any{"custom 42", "runtime error: index out of range", field, io.EOF, 42} {
		if got := recovered(v); got != v {
			t.Errorf("recovered(%#v) = %#v, want it unchanged", v, got)
		}
	}
	if got := recovered(nil); got != nil {
		t.Errorf("recovered(nil) = %#v, want nil (no panic)", got)
	}

	// A cell's own panic value, as yaegi hands it over: unwrapped.
	for _, v := range []any{io.EOF, "reflect: slice index out of range", 7} {
		if got := recovered(reflect.ValueOf(v)); got != v {
			t.Errorf("recovered(reflect.ValueOf(%#v)) = %#v, want the value", v, got)
		}
	}
	var nilErr error
	if got, ok := recovered(reflect.ValueOf(&nilErr).Elem()).(*runtime.PanicNilError); !ok {
		t.Errorf("panic(nil) recovered as %#v, want a *runtime.PanicNilError", got)
	}
}

// rewrittenRecovers parses src (a file), rewrites its recover calls and
// prints it.
func rewrittenRecovers(t *testing.T, src string) string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	wrapRecovers(f)
	var b bytes.Buffer
	if err := printer.Fprint(&b, fset, f); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestRewriteRecoversWrapsEveryValueOfRecover checks where the rewrite
// applies: every call of the builtin whose value is used, not a call whose
// value is dropped, not `defer recover()`, not a function of the cell's own
// called recover.
func TestRewriteRecoversWrapsEveryValueOfRecover(t *testing.T) {
	got := rewrittenRecovers(t, `package p
func f() {
	defer func() {
		if r := recover(); r != nil {
			println(r)
		}
	}()
	defer func() { println(recover() == nil, (recover())) }()
	defer func() { recover() }()
	defer recover()
	go recover()
	defer func() { e, ok := recover().(error); _, _ = e, ok }()
}
`)
	if n := strings.Count(got, "__gocl_hook.Recover(recover())"); n != 4 {
		t.Errorf("want 4 wrapped calls, got %d:\n%s", n, got)
	}
	for _, kept := range []string{"func() { recover() }", "defer recover()", "go recover()"} {
		if !strings.Contains(got, kept) {
			t.Errorf("%q should stay as written:\n%s", kept, got)
		}
	}
	mine := rewrittenRecovers(t, `package p
func recover() int { return 1 }
func g() int { return recover() + 1 }
`)
	if strings.Contains(mine, "__gocl_hook") {
		t.Errorf("a function of the cell's called recover was wrapped:\n%s", mine)
	}
}

// TestRecoverInACell runs recover the ways programs use it: run-time panics
// come back in Go's words (without Go's index and length), and the cell's
// own values come back as the values they were.
func TestRecoverInACell(t *testing.T) {
	e := newEngine(t)
	ok(t, e, `import (
	"io"
	"runtime"
)

type T struct{ n int }

func try(what string, f func()) {
	defer func() { fmt.Printf("%s: %v\n", what, recover()) }()
	f()
}

func asError(f func()) (err error) {
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		if e, ok := r.(error); ok {
			err = e
			return
		}
		err = fmt.Errorf("not an error: %v", r)
	}()
	f()
	return nil
}`)
	_, r := ok(t, e, `i := 3
try("index", func() { var xs []int; _ = xs[i] })
try("string index", func() { s := "ab"; _ = s[i] })
try("slice bounds", func() { xs := make([]int, 2); _ = xs[1:i] })
try("nil pointer", func() { var p *T; _ = p.n })
try("nil func", func() { var g func(); g() })
try("nil deref", func() { var p *int; x := *p; fmt.Println(x) })
try("nil deref passed", func() { var p *int; fmt.Println(*p) })
try("nil store", func() { var p *int; *p = 3 })
try("type assertion", func() { var v any = "s"; _ = v.(int) })
try("custom", func() { panic(fmt.Sprintf("custom %d", 42)) })
try("nil", func() { panic(nil) })
fmt.Println(asError(func() {}))
fmt.Println(asError(func() { panic(io.EOF) }) == io.EOF)
fmt.Println(asError(func() { panic("a string") }))
fmt.Println(asError(func() { var m map[string]int; m["a"] = 1 }))
err := asError(func() { var xs []int; _ = xs[i] })
_, isRuntime := err.(runtime.Error)
fmt.Println(err, isRuntime)`)
	expect(t, "output", r.text("stdout"), `index: runtime error: index out of range [3] with length 0
string index: runtime error: index out of range [3] with length 2
slice bounds: runtime error: slice bounds out of range [:3] with capacity 2
nil pointer: runtime error: invalid memory address or nil pointer dereference
nil func: runtime error: invalid memory address or nil pointer dereference
nil deref: runtime error: invalid memory address or nil pointer dereference
nil deref passed: runtime error: invalid memory address or nil pointer dereference
nil store: runtime error: invalid memory address or nil pointer dereference
type assertion: interface conversion: interface {} is string, not int
custom: custom 42
nil: panic called with nil argument
<nil>
true
not an error: a string
assignment to entry in nil map
runtime error: index out of range [3] with length 0 true
`)
}

// TestRepanicOfARecoveredValue checks that a recovered run-time error panicked
// again reports Go's words when nothing recovers it.
func TestRepanicOfARecoveredValue(t *testing.T) {
	e := newEngine(t)
	err := fails(t, e, `func() {
	defer func() { panic(recover()) }()
	var xs []int
	i := 5
	_ = xs[i]
}()`)
	expect(t, "error", err.Value, "runtime error: index out of range [5] with length 0")
}

// TestACellsOwnRecoverIsLeftAlone checks that a function the cells call
// recover, declared in the same cell or an earlier one, is called as
// declared, not wrapped as the builtin.
func TestACellsOwnRecoverIsLeftAlone(t *testing.T) {
	e := newEngine(t)
	_, r := ok(t, e, "func recover() int { return 41 }\nfmt.Println(recover() + 1)")
	expect(t, "same cell", r.text("stdout"), "42\n")
	_, r = ok(t, e, "fmt.Println(recover() + 2)")
	expect(t, "later cell", r.text("stdout"), "43\n")
}
