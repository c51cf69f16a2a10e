package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Compiled cells (//gocl:compile) through a real ZeroMQ client: the kernel
// builds each one with the Go toolchain and loads it as a plugin.

// errorOf returns the ename, evalue and traceback of a failed reply.
func errorOf(t *testing.T, rep map[string]any) (string, string, string) {
	t.Helper()
	if rep["status"] != "error" {
		t.Fatalf("reply status %v, want error: %v", rep["status"], rep)
	}
	var tb []string
	for _, l := range rep["traceback"].([]any) {
		tb = append(tb, l.(string))
	}
	return rep["ename"].(string), rep["evalue"].(string), strings.Join(tb, "\n")
}

// okResult runs code, fails on an error and returns its text/plain result
// and stdout.
func (k *kernel) okResult(code string) (string, string) {
	k.t.Helper()
	rep, outs := k.execute(code, nil)
	if rep["status"] != "ok" {
		k.t.Fatalf("cell failed: %v\n%s", rep["evalue"], rep["traceback"])
	}
	res := ofType(outs, "execute_result")
	text := ""
	if len(res) == 1 {
		text, _ = decode(k.t, res[0])["data"].(map[string]any)["text/plain"].(string)
	}
	return text, stream(k.t, outs, "stdout")
}

func TestCompiledCells(t *testing.T) {
	k := startKernel(t, "GOCL_MODDIR="+t.TempDir(), "GOCL_PLUGIN_CACHE="+t.TempDir())
	expect := func(what, got, want string) {
		t.Helper()
		if got != want {
			t.Errorf("%s = %q, want %q", what, got, want)
		}
	}
	// A generic function with a named constraint, used by a compiled
	// function that the interpreter calls; slices and maps; a shared var.
	_, out := k.okResult(`//gocl:compile
type Number interface{ ~int | ~int64 | ~float64 }

func SumOf[T Number](xs []T) T {
	var s T
	for _, x := range xs {
		s += x
	}
	return s
}

var SumInts = SumOf[int]

func Mean(xs []float64) float64 { return SumOf(xs) / float64(len(xs)) }

func SortedKeys(m map[string]int) []string {
	ks := slices.Collect(maps.Keys(m))
	slices.Sort(ks)
	return ks
}

var Calls int

func Count() int { Calls++; return Calls }
`)
	expect("first compiled cell's stdout", out, "")
	got, _ := k.okResult(`Mean([]float64{1, 2, 3, 6})`)
	expect("Mean", got, "3")
	got, _ = k.okResult(`SumInts([]int{4, 5, 6})`)
	expect("SumInts", got, "15")
	got, _ = k.okResult(`SortedKeys(map[string]int{"pear": 1, "apple": 2, "fig": 3})`)
	expect("SortedKeys", got, "[apple fig pear]")
	got, _ = k.okResult("Calls = 10\nCount()\nCalls")
	expect("Calls after Calls = 10 and Count()", got, "11")

	// The interpreter cannot instantiate a compiled generic: the error names
	// the declaration to write.
	rep, _ := k.execute(`SumOf[float64]([]float64{1})`, nil)
	_, evalue, _ := errorOf(t, rep)
	if !strings.Contains(evalue, "var SumOfInt = SumOf[int]") {
		t.Errorf("generic from the interpreter: evalue %q should name the instantiation to declare", evalue)
	}

	// cl objects cross both ways: a buffer in, an event back.
	k.okResult(`//gocl:compile
func Upload(q *cl.Queue, b *cl.Buffer, xs []float64) *cl.Event {
	return cl.EnqueueCopy(q, b, xs, cl.NonBlocking)
}
`)
	got, _ = k.okResult(`ctx := cl.CreateSomeContext()
q := cl.NewQueue(ctx, cl.Profiling)
xs := cl.Random(1000)
b := cl.NewBufferSize(ctx, cl.ReadWrite, 8*len(xs))
ev := Upload(q, b, xs)
ev.Wait()
ys := make([]float64, len(xs))
cl.EnqueueCopy(q, ys, b).Wait()
fmt.Sprintf("%T %v", ev, cl.MaxAbsDiff(xs, ys))`)
	expect("event type and round trip", got, `"*clapi.Event 0"`)

	// A later compiled cell uses the earlier one's names; redefinition
	// replaces them and says so.
	k.okResult("//gocl:compile\nfunc CountTwice() int { Count(); return Count() }\n")
	got, _ = k.okResult(`CountTwice()`)
	expect("CountTwice", got, "13")
	_, out = k.okResult("//gocl:compile\nfunc Mean(xs []float64) float64 { return -SumOf(xs) }\n")
	if !strings.Contains(out, "replaced Mean (cell1)") {
		t.Errorf("redefinition printed %q, want it to say that Mean of cell1 was replaced", out)
	}
	got, _ = k.okResult(`Mean([]float64{1, 2})`)
	expect("redefined Mean", got, "-3")

	// A compile error at its line and column, quoted.
	rep, _ = k.execute("//gocl:compile\nfunc Broken() int {\n\tx := 1\n\treturn x + \"a\"\n}\n", nil)
	ename, evalue, tb := errorOf(t, rep)
	if ename != "CompileError" || !strings.Contains(tb, "line 4, column") || !strings.Contains(tb, `return x + "a"`) {
		t.Errorf("compile error: %s: %s\n%s", ename, evalue, tb)
	}
	// A panic: Go's message, and the frame in cell code quoted.
	k.okResult("//gocl:compile\nfunc At(xs []int, i int) int {\n\treturn xs[i]\n}\n")
	rep, _ = k.execute(`At([]int{1, 2, 3}, 7)`, nil)
	ename, evalue, tb = errorOf(t, rep)
	if ename != "panic" || evalue != "runtime error: index out of range [7] with length 3" ||
		!strings.Contains(tb, "inside At, compiled cell #") || !strings.Contains(tb, "return xs[i]") {
		t.Errorf("panic: %s: %s\n%s", ename, evalue, tb)
	}
	// The kernel goes on, and compiled code's output reaches the cell.
	got, _ = k.okResult(`Calls`)
	expect("Calls after the errors", got, "13")
	k.okResult("//gocl:compile\nfunc Hello(name string) { fmt.Println(\"hello,\", name) }\n")
	_, out = k.okResult(`Hello("cell")`)
	expect("compiled fmt.Println", out, "hello, cell\n")
}

func TestCompiledCellModules(t *testing.T) {
	dir := t.TempDir()
	k := startKernel(t, "GOCL_MODDIR="+dir, "GOCL_PLUGIN_CACHE=off")
	_, out := k.okResult(`//gocl:compile
import (
	"github.com/google/go-cmp/cmp"
	"gonum.org/v1/gonum/stat"
)

func Diff(a, b []int) string { return cmp.Diff(a, b) }

func Mean(xs []float64) float64 { return stat.Mean(xs, nil) }
`)
	if !strings.Contains(out, "module github.com/google/go-cmp v") || !strings.Contains(out, "module gonum.org/v1/gonum v") {
		t.Errorf("the cell should say which module versions it took, printed %q", out)
	}
	pins, err := os.ReadFile(filepath.Join(dir, "gocl.mod"))
	if err != nil || !strings.Contains(string(pins), "github.com/google/go-cmp v") {
		t.Errorf("gocl.mod should pin go-cmp: %v\n%s", err, pins)
	}
	if sum, err := os.ReadFile(filepath.Join(dir, "gocl.sum")); err != nil || !strings.Contains(string(sum), "github.com/google/go-cmp") {
		t.Errorf("gocl.sum should hold go-cmp's hashes: %v\n%s", err, sum)
	}
	got, _ := k.okResult(`Mean([]float64{1, 2, 3, 4})`)
	if got != "2.5" {
		t.Errorf("stat.Mean = %q, want 2.5", got)
	}
	got, _ = k.okResult(`Diff([]int{1, 2}, []int{1, 2}) == ""`)
	if got != "true" {
		t.Errorf("cmp.Diff of equal slices is not empty: %q", got)
	}

	// The pins make it reproducible: a new kernel in the same directory builds
	// the same versions without the proxy.
	again := startKernel(t, "GOCL_MODDIR="+dir, "GOPROXY=off", "GOCL_PLUGIN_CACHE=off")
	_, out = again.okResult("//gocl:compile\nimport \"github.com/google/go-cmp/cmp\"\n\nfunc Same(a, b []int) bool { return cmp.Equal(a, b) }\n")
	pinned := regexp.MustCompile(`github.com/google/go-cmp (v\S+)`).FindStringSubmatch(string(pins))
	if pinned == nil || !strings.Contains(out, "module github.com/google/go-cmp "+pinned[1]) {
		t.Errorf("the build from the pins should take the pinned go-cmp %v, printed %q", pinned, out)
	}
	if got, _ := again.okResult(`Same([]int{1}, []int{1})`); got != "true" {
		t.Errorf("cmp.Equal from the pinned module = %q", got)
	}

	// Without the proxy, a module that is not pinned fails clearly, at its
	// import line.
	off := startKernel(t, "GOCL_MODDIR="+t.TempDir(), "GOPROXY=off", "GOCL_PLUGIN_CACHE=off")
	rep, _ := off.execute("//gocl:compile\nimport \"github.com/gocl-test/absent/pkg\"\n\nvar X = pkg.X\n", nil)
	ename, evalue, tb := errorOf(t, rep)
	if ename != "CompileError" || !strings.Contains(evalue, "GOPROXY=off") || !strings.Contains(tb, "line 2") {
		t.Errorf("module without the proxy: %s: %s\n%s", ename, evalue, tb)
	}
}

func TestCompiledCellWithoutToolchain(t *testing.T) {
	// The go command named does not exist (as on a machine with no Go):
	// interpreted cells work, compiled cells say what is missing, unless
	// this binary built the very cell before and its plugin is in the cache.
	cache := t.TempDir()
	noGo := "GOCL_GO=" + filepath.Join(t.TempDir(), "go")
	k := startKernel(t, noGo, "GOCL_PLUGIN_CACHE="+cache)
	got, _ := k.okResult(`1 + 2`)
	if got != "3" {
		t.Errorf("interpreted cell without a toolchain = %q", got)
	}
	cell := "//gocl:compile\nfunc Seven() int { return 7 }\n"
	rep, _ := k.execute(cell, nil)
	ename, evalue, _ := errorOf(t, rep)
	if ename != "ToolchainError" || !strings.Contains(evalue, "no Go toolchain") {
		t.Errorf("compiled cell without a toolchain: %s: %s", ename, evalue)
	}

	// Built once by a kernel with the toolchain, as the first cell...
	with := startKernel(t, "GOCL_PLUGIN_CACHE="+cache)
	with.okResult(cell)
	// ...the same cell loads from the cache in a kernel without it.
	without := startKernel(t, noGo, "GOCL_PLUGIN_CACHE="+cache)
	without.okResult(cell)
	if got, _ := without.okResult(`Seven() * 6`); got != "42" {
		t.Errorf("cell from the plugin cache: Seven()*6 = %q", got)
	}
	// Loading from the cache keeps the plugin there for the next run.
	if so, _ := filepath.Glob(filepath.Join(cache, "*.so")); len(so) != 1 {
		t.Errorf("plugin cache after a load from it: %v, want the one plugin", so)
	}
}
