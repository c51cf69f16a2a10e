package engine

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// These tests build real plugins with the Go toolchain (a few seconds each
// when the build cache is warm).

func TestCompiledCellSharesNamesAndVars(t *testing.T) {
	t.Setenv("GOCL_PLUGIN_CACHE", t.TempDir())
	e := newEngine(t)
	_, r := ok(t, e, `//gocl:compile
type Number interface{ ~int | ~float64 }

func SumOf[T Number](xs []T) T {
	var s T
	for _, x := range xs {
		s += x
	}
	return s
}

var SumInts = SumOf[int]

func Total(xs []float64) float64 { return SumOf(xs) }

var Counter int

func Bump() int { Counter++; return Counter }

type Point struct{ X, Y int }

func (p Point) Sum() int { return p.X + p.Y }

func Keys(m map[string]int) []string {
	ks := slices.Collect(maps.Keys(m))
	slices.Sort(ks)
	return ks
}
`)
	if out := r.text("stdout"); out != "" {
		t.Errorf("first compiled cell printed %q, want nothing", out)
	}
	got, _ := ok(t, e, `Total([]float64{1.5, 2.5})`)
	expect(t, "Total", got, "4")
	got, _ = ok(t, e, `SumInts([]int{1, 2, 3})`)
	expect(t, "SumInts", got, "6")
	got, _ = ok(t, e, `Counter = 41; Bump(); Counter`)
	expect(t, "Counter", got, "42")
	got, _ = ok(t, e, `p := Point{X: 2, Y: 3}; p.Sum()`)
	expect(t, "Point.Sum", got, "5")
	got, _ = ok(t, e, `Keys(map[string]int{"b": 1, "a": 2})`)
	expect(t, "Keys", got, "[a b]")

	err := fails(t, e, `SumOf[int]([]int{1})`)
	if !strings.Contains(tb(err), "var SumOfInt = SumOf[int]") {
		t.Errorf("generic from the interpreter: want a hint naming the instantiation, got\n%s", tb(err))
	}

	// A later compiled cell uses the earlier one's names and variable.
	ok(t, e, `//gocl:compile
func BumpTwice() int { Bump(); return Bump() }
`)
	got, _ = ok(t, e, `BumpTwice()`)
	expect(t, "BumpTwice", got, "44")

	// Redefinition.
	_, r = ok(t, e, `//gocl:compile
func Total(xs []float64) float64 { return -SumOf(xs) }
`)
	if out := r.text("stdout"); !strings.Contains(out, "replaced Total (cell1)") {
		t.Errorf("redefinition should say what it replaced, printed %q", out)
	}
	got, _ = ok(t, e, `Total([]float64{1, 2})`)
	expect(t, "redefined Total", got, "-3")
}

func TestCompiledCellErrors(t *testing.T) {
	t.Setenv("GOCL_PLUGIN_CACHE", t.TempDir())
	e := newEngine(t)
	err := fails(t, e, "//gocl:compile\nfunc F() int {\n\treturn undefinedThing\n}\n")
	expect(t, "error name", err.Name, "CompileError")
	if s := tb(err); !strings.Contains(s, "line 3, column 9") || !strings.Contains(s, "return undefinedThing") {
		t.Errorf("compile error should point at line 3 column 9 and quote it:\n%s", s)
	}
	ok(t, e, "//gocl:compile\nfunc Index(xs []int, i int) int {\n\treturn xs[i]\n}\n")
	err = fails(t, e, `Index([]int{1, 2, 3}, 5)`)
	if s := tb(err); !strings.Contains(err.Value, "runtime error: index out of range [5] with length 3") ||
		!strings.Contains(s, "inside Index, compiled cell #2, line 3:") || !strings.Contains(s, "return xs[i]") {
		t.Errorf("panic in compiled code: got %s: %s\n%s", err.Name, err.Value, s)
	}
}

func TestCompiledCellInterruptAndInit(t *testing.T) {
	t.Setenv("GOCL_PLUGIN_CACHE", t.TempDir())
	e := newEngine(t)
	// A compiled loop that checks the cell's context stops on interrupt.
	ok(t, e, `//gocl:compile
func Spin() int {
	n := 0
	for !cell.Interrupted() {
		n++
	}
	return n
}
`)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	start := time.Now()
	res := e.Execute(ctx, `Spin()`, &recorder{})
	if res.Err == nil || res.Err.Name != "Interrupted" {
		t.Errorf("interrupting Spin: %+v", res.Err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("Spin stopped after %v", d)
	}
	// A panic while the cell initializes is one error with its frame.
	err := fails(t, e, "//gocl:compile\nvar Table = build()\n\nfunc build() []int {\n\tpanic(\"no table\")\n}\n")
	if err.Name != "panic" || !strings.Contains(err.Value, "no table") || !strings.Contains(tb(err), "inside build, compiled cell #3, line 5:") {
		t.Errorf("init panic: %s: %s\n%s", err.Name, err.Value, tb(err))
	}
	// Unexported names of an earlier compiled cell: a func, a generic func,
	// a generic type, a constant and a variable (the same variable).
	ok(t, e, `//gocl:compile
type number interface{ ~int | ~float64 }

func helper() int { return 1 }

func sum[T number](xs ...T) T {
	var s T
	for _, x := range xs {
		s += x
	}
	return s
}

type pair[T any] struct{ A, B T }

const base = 100

var count int
`)
	ok(t, e, `//gocl:compile
func Use() int {
	count += helper()
	p := pair[int]{A: sum(1, 2), B: base}
	return p.A + p.B + count
}
`)
	got, _ := ok(t, e, "Use()")
	expect(t, "Use", got, "104")
	got, _ = ok(t, e, "count")
	expect(t, "count (the same variable)", got, "1")
	err = fails(t, e, "//gocl:compile\nfunc Bad() int {\n\tq := pair[int]{}\n\treturn count + helper() + q.a\n}\n")
	if s := tb(err); !strings.Contains(s, "line 4, column 30") || !strings.Contains(s, "q.a undefined") ||
		strings.Contains(s, "Gocl_") || !strings.Contains(s, "must be capitalized") {
		t.Errorf("an error in a line that uses earlier names should keep the cell's columns, names and say why:\n%s", s)
	}
	// An interpreted cell may redeclare a compiled func or var, as in a
	// playground, but not change a compiled type.
	got, _ = ok(t, e, "func helper() int { return 2 }\nhelper()")
	expect(t, "interpreted helper", got, "2")
	ok(t, e, "//gocl:compile\ntype P struct{ X int }\n")
	err = fails(t, e, "type P struct{ A int }")
	if !strings.Contains(err.Value, "type P was declared in an earlier cell") {
		t.Errorf("changing a compiled type in an interpreted cell: %s", err.Value)
	}
}

func TestCompiledFuncShapes(t *testing.T) {
	t.Setenv("GOCL_PLUGIN_CACHE", t.TempDir())
	e := newEngine(t)
	ok(t, e, `//gocl:compile
import "strconv"

var Log []string

func Note(s string)                     { Log = append(Log, s) }
func Sum(prefix string, xs ...int) (string, int) {
	s := 0
	for _, x := range xs {
		s += x
	}
	return prefix + strconv.Itoa(s), s
}
func Apply(f func(int) int, x int) int { return f(x) }
`)
	got, _ := ok(t, e, `Note("a"); Note("b"); Log`)
	expect(t, "Log", got, "[a b]")
	got, _ = ok(t, e, `s, n := Sum("total ", 1, 2, 3); fmt.Sprint(s, n)`)
	expect(t, "Sum", got, `"total 66"`)
	got, _ = ok(t, e, `Apply(func(x int) int { return x * 10 }, 4)`)
	expect(t, "Apply with an interpreted func", got, "40")
}

func TestCompiledBuildInterrupted(t *testing.T) {
	// A go command that answers its version and then builds forever: an
	// interrupt stops the build, and the kernel goes on.
	goBin := filepath.Join(t.TempDir(), "go")
	script := "#!/bin/sh\nif [ \"$1\" = env ]; then echo " + runtime.Version() + "; exit 0; fi\nexec sleep 60\n"
	if err := os.WriteFile(goBin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOCL_GO", goBin)
	t.Setenv("GOCL_PLUGIN_CACHE", "off")
	e := newEngine(t)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	done := make(chan Result, 1)
	go func() { done <- e.Execute(ctx, "//gocl:compile\nfunc F() int { return 1 }\n", &recorder{}) }()
	select {
	case res := <-done:
		if res.Err == nil || res.Err.Name != "Interrupted" || !strings.Contains(tb(res.Err), "build was stopped") {
			t.Errorf("interrupted build: %+v", res.Err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the interrupted build did not stop (hang guard)")
	}
	got, _ := ok(t, e, "1 + 1")
	expect(t, "after the interrupted build", got, "2")
}
