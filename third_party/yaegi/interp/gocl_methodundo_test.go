// gocl patch: this whole file is gocl's (see ../PATCHES.md).

package interp_test

import (
	"bytes"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// TestFailedCompileTakesBackMethods compiles declarations whose function
// does not compile, then the same declarations corrected: the method the
// second compile declares is the one that runs (it printed nothing: the
// type kept the failed compile's method, which never became runnable).
func TestFailedCompileTakesBackMethods(t *testing.T) {
	decls := `package main
import "fmt"
type T struct{ n int }
func (t *T) show() { fmt.Println("show", t.n) }
func (t T) twice() int { return 2 * t.n }
func sum(a, b int) int { return a + b }
`
	var out bytes.Buffer
	i := interp.New(interp.Options{Stdout: &out})
	if err := i.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	if _, err := i.Eval(decls + "func run() { t := &T{n: 7}; t.show(); sum(1) }\n"); err == nil {
		t.Fatal("a call with too few arguments compiled")
	}
	// The corrected program, without its import (that one succeeded).
	fixed := "package main\ntype T struct{ n int }\nfunc (t *T) show() { fmt.Println(\"show\", t.n) }\n" +
		"func (t T) twice() int { return 2 * t.n }\nfunc sum(a, b int) int { return a + b }\n" +
		"func run() { t := &T{n: 7}; t.show(); fmt.Println(t.twice(), sum(1, 2)) }\n"
	if _, err := i.Eval(fixed); err != nil {
		t.Fatal(err)
	}
	if _, err := i.Eval("run()"); err != nil {
		t.Fatal(err)
	}
	if got, want := out.String(), "show 7\n14 3\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
