package engine

import (
	"strings"
	"testing"
)

// TestRedeclaredInOneCell checks that a name declared twice at one cell's
// top level, by a declaration and a statement, is Go's error, while a
// later cell may declare it again.
func TestRedeclaredInOneCell(t *testing.T) {
	e := newEngine(t)
	for _, c := range []struct{ code, want string }{
		{"type foo struct {\n\tyolo string\n}\nvar foo int\nfoo = 2\nfmt.Println(foo)", "foo redeclared in this block"},
		{"var bar struct{ yolo string }\ntype bar struct{}\nvar baz bar\nfmt.Println(baz)", "bar redeclared in this block"},
		{"func f() int { return 1 }\nvar f = 2", "f redeclared in this block"},
		{"a := 1\nfunc g() {}\na := 2", "no new variables on left side of :="},
	} {
		res, r := run(t, e, c.code)
		if res.Err == nil || !strings.Contains(res.Err.Value, c.want) {
			t.Errorf("%q: error %+v, want %q", c.code, res.Err, c.want)
		}
		if out := r.text("stdout"); out != "" {
			t.Errorf("%q printed %q", c.code, out)
		}
	}
	_, r := ok(t, e, "a, err := 1, error(nil)\nfunc g() int { return 3 }\nb, err := 2, error(nil)\nfmt.Println(a, b, err, g())")
	expect(t, "a := that declares one new name", r.text("stdout"), "1 2 <nil> 3\n")
	_, r = ok(t, e, "var g = \"now a string\"\nfmt.Println(g)")
	expect(t, "a later cell declaring g again", r.text("stdout"), "now a string\n")
}

// TestPackageNamedFunc checks that a function named like a package every
// cell has gets an error that says so.
func TestPackageNamedFunc(t *testing.T) {
	e := newEngine(t)
	err := fails(t, e, "package main\n\nfunc sort(xs []int) {}\n\nfunc main() { sort(nil) }")
	if !strings.Contains(err.Value, `sort is the name of the package "sort", which every cell has without an import`) {
		t.Errorf("func sort: %s", tb(err))
	}
	err = fails(t, e, "package main\n\nimport \"time\"\n\ntype time string\n\nfunc main() {}")
	if !strings.Contains(err.Value, "time redeclared in this block") {
		t.Errorf("type time in a cell that imports time: %s", tb(err))
	}
	_, r := ok(t, e, "errors := []int{1}\nfmt.Println(errors)")
	expect(t, "a variable named errors", r.text("stdout"), "[1]\n")
}
