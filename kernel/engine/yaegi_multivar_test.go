package engine

import "testing"

// TestMultiValuedPackageVars checks a program's package-level variables
// declared from a multi-valued call, read by a function that another
// function calls (yaegi left them invalid there).
func TestMultiValuedPackageVars(t *testing.T) {
	e := newEngine(t)
	_, r := ok(t, e, `package main

import (
	"fmt"
	"strconv"
)

func r2() (int, int) { return 1, 2 }

var a, b int = r2()

var (
	n, err = strconv.Atoi("x")
	_, d   = r2()
	c      = 3
)

func show() { fmt.Println(a, b, n, err, c, d) }

func main() { show() }
`)
	expect(t, "main's output", r.text("stdout"), "1 2 0 strconv.Atoi: parsing \"x\": invalid syntax 3 2\n")
	// The variables are the cell's, for later cells, and a re-run declares them again.
	_, r = ok(t, e, "show()\na = 7\nshow()")
	expect(t, "a later cell", r.text("stdout"), "1 2 0 strconv.Atoi: parsing \"x\": invalid syntax 3 2\n7 2 0 strconv.Atoi: parsing \"x\": invalid syntax 3 2\n")
}
