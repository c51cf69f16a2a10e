package engine

import (
	"strings"
	"testing"
)

// TestMultiDefineInTopLevelBlocks covers the yaegi gap scoped.go works
// around: `a, b :=` inside the block of a statement at a cell's top level.
func TestMultiDefineInTopLevelBlocks(t *testing.T) {
	e := newEngine(t)
	ok(t, e, "import \"strconv\"\nvar last any = 3\ntotal := 0.0")
	cases := []struct{ code, stdout string }{
		{"if true { f, err := strconv.ParseFloat(\"1.5\", 64); fmt.Println(f, err) }", "1.5 <nil>\n"},
		{"for _, s := range []string{\"1\", \"x\"} {\n\tf, err := strconv.ParseFloat(s, 64)\n\tif err != nil { fmt.Println(\"bad\", s); continue }\n\ttotal += f\n}\nfmt.Println(total)", "bad x\n1\n"},
		{"if true { v, ok := last.(int); fmt.Println(v, ok) }", "3 true\n"},
		{"switch { case true: m := map[string]int{\"a\": 1}; v, ok := m[\"a\"]; fmt.Println(v, ok) }", "1 true\n"},
		{"{ a, b := 1, 2; fmt.Println(a + b) }", "3\n"},
	}
	for _, c := range cases {
		_, r := ok(t, e, c.code)
		expect(t, "stdout of "+c.code, r.text("stdout"), c.stdout)
	}
	// Globals assigned inside stay assigned; an error still points at its line.
	got, _ := ok(t, e, "total")
	expect(t, "total", got, "1")
	res, _ := run(t, e, "if true {\n\ta, b := 1, nosuch\n\t_, _ = a, b\n}")
	if res.Err == nil || res.Err.Name != "CompileError" {
		t.Fatalf("want a compile error, got %+v", res.Err)
	}
	if tbText := tb(res.Err); !strings.Contains(tbText, "line 2") {
		t.Errorf("the error does not point at line 2:\n%s", tbText)
	}
}

// TestCommaOKAtTopLevel covers comma-ok := in the global scope, which yaegi
// cannot compile as written.
func TestCommaOKAtTopLevel(t *testing.T) {
	e := newEngine(t)
	ok(t, e, "type Card struct{ N int }\nvar last any = Card{7}\nm := map[string]int{\"a\": 1}\nkey := \"a\"")
	cases := []struct{ code, stdout string }{
		{"c, isCard := last.(Card)\nfmt.Println(c.N, isCard)", "7 true\n"},
		{"n, isInt := last.(int)\nfmt.Println(n, isInt)", "0 false\n"},
		{"v, found := m[key]\nfmt.Println(v, found)", "1 true\n"},
		{"w, there := m[\"b\"]\nfmt.Println(w, there)", "0 false\n"},
		{"_, has := m[\"a\"]\nfmt.Println(has)", "true\n"},
		{"c2, _ := last.(Card)\nfmt.Println(c2.N)", "7\n"},
	}
	for _, c := range cases {
		_, r := ok(t, e, c.code)
		expect(t, "stdout of "+c.code, r.text("stdout"), c.stdout)
	}
	got, _ := ok(t, e, "found && isCard")
	expect(t, "the names stay defined", got, "true")
}

// TestCommaOKReceiveAtTopLevel covers `v, ok := <-ch` in a cell's global
// scope, which yaegi fails ("nil type"): the element type is read off the
// live channel. The receive happens once per statement.
func TestCommaOKReceiveAtTopLevel(t *testing.T) {
	e := newEngine(t)
	_, r := ok(t, e, "ch := make(chan int, 2)\nch <- 5\nch <- 6\nv, open := <-ch\nfmt.Println(v, open, len(ch))")
	expect(t, "first receive", r.text("stdout"), "5 true 1\n")
	_, r = ok(t, e, "close(ch)\nw, open2 := <-ch\nx, open3 := <-ch\nfmt.Println(w, open2, x, open3)")
	expect(t, "drain, then closed", r.text("stdout"), "6 true 0 false\n")
	_, r = ok(t, e, "names := make(chan []string, 1)\nnames <- []string{\"a\"}\nns, _ := <-names\nfmt.Println(ns)")
	expect(t, "composite element type", r.text("stdout"), "[a]\n")
	_, r = ok(t, e, "tick := make(chan time.Duration, 1)\ntick <- time.Second\nd, got := <-tick\nfmt.Println(d, got)")
	expect(t, "a package's type", r.text("stdout"), "1s true\n")
	_, r = ok(t, e, "tick <- time.Minute\n_, more := <-tick\nch2 := make(chan string, 1)\nch2 <- \"s\"\n_, more2 := <-ch2\nfmt.Println(more, more2, len(tick), len(ch2))")
	expect(t, "blank values of two types", r.text("stdout"), "true true 0 0\n")
	got, _ := ok(t, e, "open && !open3")
	expect(t, "the names stay defined", got, "true")

	// A cell-defined element type: the probe needs no written type, so
	// this compiles too, and yaegi's log.Panic line never reaches stderr.
	got, r = ok(t, e, "type P struct{ A int }\npc := make(chan P, 1)\npc <- P{3}\np, okP := <-pc\nfmt.Sprint(p.A, okP)")
	expect(t, "receive of a cell type", got, `"3 true"`)
	expect(t, "stderr of the receive", r.text("stderr"), "")
	_, r = ok(t, e, "import \"log\"\nlog.SetFlags(0)\nlog.Print(\"still logging\")")
	expect(t, "log after the failed compile", r.text("stderr"), "still logging\n")
}

// TestIndexOfCompiledNamedCollections covers `x := s[i]` at a cell's top
// level where s has a compiled package's named slice or map type, which
// yaegi cannot type (cl.Platforms()[0] is the case users meet).
func TestIndexOfCompiledNamedCollections(t *testing.T) {
	e := newEngine(t)
	ok(t, e, "import \"net/http\"\ns := sort.IntSlice{3, 1}\nss := sort.StringSlice{\"b\", \"a\"}\nh := http.Header{\"A\": {\"x\"}}")
	for _, c := range []struct{ code, want string }{
		{"v := s[0]\nv", "3"},
		{"w := ss[1]\nw", `"a"`},
		{"hv := h[\"A\"]\nhv", "[x]"},
		{"v = s[1]\nv", "1"},
	} {
		got, _ := ok(t, e, c.code)
		expect(t, c.code, got, c.want)
	}
	// A name that really is undefined still fails, with yaegi's words explained.
	res, _ := run(t, e, "z := nosuch[0]")
	if res.Err == nil || !strings.Contains(res.Err.Value, "undefined") {
		t.Errorf("want an error about the undefined name, got %+v", res.Err)
	}
}

// TestIndexOfACallResult covers `x := f()[i]` where f returns a compiled
// named slice: the call runs once.
func TestIndexOfACallResult(t *testing.T) {
	e := newEngine(t)
	ok(t, e, "calls := 0\nfunc next() sort.IntSlice { calls++; return sort.IntSlice{calls * 10, 2} }")
	got, _ := ok(t, e, "first := next()[0]\nfirst")
	expect(t, "first", got, "10")
	got, _ = ok(t, e, "calls")
	expect(t, "calls", got, "1")
}
