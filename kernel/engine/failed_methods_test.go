package engine

import (
	"strings"
	"testing"
)

// TestFailedCellMethodsGoAway declares a type's method in a cell that fails
// to compile (another function of it is wrong), then the corrected cell:
// the method that runs is the corrected one. yaegi kept the failed cell's
// method on the type, and the call printed nothing (third_party/yaegi's
// gocl_methodundo.go). A pasted program whose go statement the guard cannot
// express compiles twice the same way, and keeps its method calls.
func TestFailedCellMethodsGoAway(t *testing.T) {
	e := newEngine(t)
	ok(t, e, `import "fmt"`)
	fails(t, e, "type T struct{ n int }\nfunc (t T) f() { fmt.Println(\"v1\", t.n) }\nfunc sum(a, b int) {}\nfunc g() { sum(1) }")
	ok(t, e, "type T struct{ n int }\nfunc (t T) f() { fmt.Println(\"v2\", t.n) }")
	_, r := ok(t, e, "T{3}.f()")
	expect(t, "the corrected method", r.text("stdout"), "v2 3\n")

	_, r = ok(t, e, `package main

type U struct{ n int }

func (u *U) show() { fmt.Println("show", u.n) }

func two() (int, int) { return 1, 2 }

func add(a, b int) {}

func main() {
	u := &U{n: 7}
	u.show()
	if u.n < 0 {
		go add(two())
	}
	fmt.Println("end")
}`)
	expect(t, "a pasted program compiled a second time", r.text("stdout"), "show 7\nend\n")
	if !strings.Contains(r.text("stderr"), "could not be guarded") {
		t.Errorf("the go statement was guarded after all, so the program was compiled once: %q", r.text("stderr"))
	}
}
