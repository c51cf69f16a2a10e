package engine

import (
	"runtime"
	"strings"
	"testing"
)

// TestDeferredCallsBindAtTheDeferStatement checks Go's rule that a deferred
// call's function and arguments are evaluated at the defer statement, which
// yaegi gets wrong unless the engine rewrites the defers.
func TestDeferredCallsBindAtTheDeferStatement(t *testing.T) {
	e := newEngine(t)
	_, r := ok(t, e, "x := 1\ndefer fmt.Println(\"top\", x)\ndefer func(v int) { fmt.Println(\"literal arg\", v) }(x)\n"+
		"defer func() { fmt.Println(\"closure\", x) }()\nx = 3")
	expect(t, "top-level defers", r.text("stdout"), "closure 3\nliteral arg 1\ntop 1\n")
	_, r = ok(t, e, "func h() {\n\tfor i := 0; i < 3; i++ {\n\t\tdefer fmt.Println(\"loop\", i)\n\t}\n}\nh()")
	expect(t, "defers in a loop", r.text("stdout"), "loop 2\nloop 1\nloop 0\n")
	_, r = ok(t, e, "type F struct{ n string }\nfunc (f *F) Close() { fmt.Println(\"close\", f.n) }\n"+
		"func files() {\n\tfor _, n := range []string{\"a\", \"b\"} {\n\t\tf := &F{n}\n\t\tdefer f.Close()\n\t}\n}\nfiles()")
	expect(t, "a method of a loop variable", r.text("stdout"), "close b\nclose a\n")
	_, r = ok(t, e, "func rec() (err error) {\n\tdefer func() {\n\t\tif v := recover(); v != nil { err = fmt.Errorf(\"recovered: %v\", v) }\n\t}()\n"+
		"\tdefer fmt.Println(\"printed first\")\n\tpanic(\"boom\")\n}\nfmt.Println(rec())")
	expect(t, "recover beside a bound defer", r.text("stdout"), "printed first\nrecovered: boom\n")
	_, r = ok(t, e, "ch := make(chan int)\nfunc closer() { defer close(ch) }\ncloser()\n_, open := <-ch\nfmt.Println(open)")
	expect(t, "a builtin deferred", r.text("stdout"), "false\n")
}

// TestWholeProgramInACell checks the package clause and func main: main
// runs once, after the cell, and never after later cells.
func TestWholeProgramInACell(t *testing.T) {
	e := newEngine(t)
	prog := "package main\n\nimport \"fmt\"\n\nvar greeting = makeGreeting()\n\nfunc makeGreeting() string { return \"hi\" }\n\nfunc main() {\n\tdefer fmt.Println(\"bye\")\n\tfmt.Println(greeting)\n}\n"
	_, r := ok(t, e, prog)
	expect(t, "program", r.text("stdout"), "hi\nbye\n")
	_, r = ok(t, e, "y := 2\n_ = y")
	expect(t, "a later cell", r.text("stdout"), "")
	_, r = ok(t, e, prog)
	expect(t, "the program again", r.text("stdout"), "hi\nbye\n")
	// Without a package clause, a cell may mix statements with func main,
	// which runs after them.
	_, r = ok(t, e, "func main() { fmt.Println(\"main\") }\nfmt.Println(\"statements first\")")
	expect(t, "main after the statements", r.text("stdout"), "statements first\nmain\n")
	err := fails(t, e, "package main\nfmt.Println(1)")
	if err.Name != "SyntaxError" || !strings.Contains(err.Value, "expected declaration") {
		t.Errorf("a statement in a program: %s", tb(err))
	}
}

// TestTypeSwitchInterfaceCases checks that interface cases of a type switch
// match values of compiled types, in Go's order, and a cell's own type.
func TestTypeSwitchInterfaceCases(t *testing.T) {
	e := newEngine(t)
	ok(t, e, "import \"io\"\nfunc kind(v any) string {\n\tswitch t := v.(type) {\n\tcase nil:\n\t\treturn \"nil\"\n\tcase error:\n\t\treturn \"error \" + t.Error()\n"+
		"\tcase fmt.Stringer:\n\t\treturn \"stringer \" + t.String()\n\tcase int, string:\n\t\treturn fmt.Sprint(\"int or string \", t)\n\tdefault:\n\t\treturn fmt.Sprint(\"other \", t)\n\t}\n}")
	_, r := ok(t, e, "for _, v := range []any{io.EOF, fmt.Errorf(\"w: %w\", io.EOF), time.Second, 3, \"s\", 2.5, nil} { fmt.Println(kind(v)) }")
	expect(t, "kinds", r.text("stdout"), "error EOF\nerror w: EOF\nstringer 1s\nint or string 3\nint or string s\nother 2.5\nnil\n")
	_, r = ok(t, e, "type S int\nfunc (S) String() string { return \"S!\" }\nvar sv any = S(1)\nswitch t := sv.(type) {\ncase error:\n\tfmt.Println(\"error\", t)\ncase fmt.Stringer:\n\tfmt.Println(\"stringer\", t)\n}")
	expect(t, "a cell's type", r.text("stdout"), "stringer S!\n")
	_, r = ok(t, e, "var v any = io.EOF\nL:\nswitch v.(type) {\ncase error:\n\tfor {\n\t\tbreak L\n\t}\n\tfmt.Println(\"not reached\")\n}\nfmt.Println(\"done\")")
	expect(t, "labelled break out of a type switch", r.text("stdout"), "done\n")
}

// TestRuntimeErrorsInGoWords checks that run-time panics say what Go says.
func TestRuntimeErrorsInGoWords(t *testing.T) {
	e := newEngine(t)
	for code, want := range map[string]string{
		"a := []int{}\n_ = a[3]":    "runtime error: index out of range [3] with length 0",
		"s := \"ab\"\n_ = s[5]":     "runtime error: index out of range [5] with length 2",
		"a := []int{1}\n_ = a[1:5]": "runtime error: slice bounds out of range [:5] with capacity 1",
		// An index after a call: no check (yaegi_bounds.go), Go's words
		// without its numbers.
		"a := []int{}\nthree := func() int { return 3 }\n_ = a[three()]": "runtime error: index out of range",
		"var p *struct{ X int }\n_ = p.X":                                "runtime error: invalid memory address or nil pointer dereference",
		"var f func()\nf()":                                              "runtime error: invalid memory address or nil pointer dereference",
		"z := 0\n_ = 1 / z":                                              "runtime error: integer divide by zero",
		"var v any = \"s\"\nn := v.(int)\n_ = n":                         "interface conversion: interface {} is string, not int",
		"var m map[string]int\nm[\"a\"] = 1":                             "assignment to entry in nil map",
	} {
		err := fails(t, e, code)
		if err.Value != want || strings.Contains(tb(err), "reflect") {
			t.Errorf("%q: got\n%s\nwant %q", code, tb(err), want)
		}
	}
}

// TestTemporariesAreFreed checks that re-running a cell that makes 100 MB
// keeps the live heap flat: the new value replaces the old one, and what a
// statement computed is freed when the cell ends.
func TestTemporariesAreFreed(t *testing.T) {
	e := newEngine(t)
	live := func() uint64 {
		var m runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	ok(t, e, "big := make([]byte, 100<<20)\n_ = big")
	before := live()
	for i := 0; i < 10; i++ {
		ok(t, e, "big := make([]byte, 100<<20)\nfmt.Sprint(len(make([]byte, 50<<20)), len(big))")
	}
	if after := live(); after > before+60<<20 {
		t.Errorf("live heap grew from %d MB to %d MB over 10 runs of a 100 MB cell", before>>20, after>>20)
	}
	got, _ := ok(t, e, "len(big)")
	expect(t, "the last value is kept", got, "104857600")
}

// TestFailedCellDropsWhatItDidNotReach checks that a name declared after
// the failing statement is undefined afterwards, with a hint, and that it
// can be declared again with another type.
func TestFailedCellDropsWhatItDidNotReach(t *testing.T) {
	e := newEngine(t)
	fails(t, e, "kept := 1\nbad := []int{}[1]\nnever := \"x\"\n_, _ = bad, never")
	got, _ := ok(t, e, "kept")
	expect(t, "kept", got, "1")
	err := fails(t, e, "fmt.Println(never)")
	if !strings.HasPrefix(err.Value, "undefined: never") || !strings.Contains(err.Value, "cell #1") {
		t.Errorf("dropped name: %s", tb(err))
	}
	if _, ok := e.Scope().Globals["never"]; ok {
		t.Error("Scope lists a dropped name")
	}
	got, _ = ok(t, e, "bad := 2.5\nnever := 3\nfmt.Sprint(bad, never)")
	expect(t, "declared again", got, `"2.5 3"`)
}

// TestModernGo checks Go 1.21/1.22 forms that yaegi v0.16.1 lacks: clear,
// range over an integer, and method expressions of a cell's types.
func TestModernGo(t *testing.T) {
	e := newEngine(t)
	_, r := ok(t, e, "m := map[string]int{\"a\": 1}\nclear(m)\ns := []int{1, 2}\nclear(s)\nfmt.Println(len(m), s)")
	expect(t, "clear", r.text("stdout"), "0 [0 0]\n")
	_, r = ok(t, e, "n := 2\nfor i := range 3 { fmt.Print(i) }\nfor range n { fmt.Print(\"x\") }\n"+
		"func twice(k int) { for j := range k * 2 { fmt.Print(j) } }\ntwice(n)\nvar u uint8 = 2\nfor i := range u { fmt.Printf(\" %T\", i) }\n"+
		"for i, v := range []string{\"a\"} { fmt.Print(\" \", i, v) }\nfmt.Println()")
	expect(t, "range over integers", r.text("stdout"), "012xx0123 uint8 uint8 0a\n")
	_, r = ok(t, e, "type Dog struct{ name string }\nfunc (d Dog) Sound() string { return d.name + \" woof\" }\n"+
		"func (d *Dog) Rename(n string) { d.name = n }\ng := Dog.Sound\nd := &Dog{\"a\"}\n(*Dog).Rename(d, \"rex\")\nfmt.Println(g(*d))")
	expect(t, "method expressions", r.text("stdout"), "rex woof\n")
}
