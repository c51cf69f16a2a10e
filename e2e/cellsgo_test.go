package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// goRun is the oracle: what `go run` prints for program src.
func goRun(t *testing.T, src string) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go toolchain to compare with")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(goTool, "run", "main.go")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GO111MODULE=off")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go run: %v\n%s", err, out)
	}
	return string(out)
}

// cellOutput runs code as one cell and returns its stdout, failing the test
// on an error reply.
func cellOutput(t *testing.T, k *kernel, code string) string {
	t.Helper()
	rep, outs := k.execute(code, nil)
	if rep["status"] != "ok" {
		t.Fatalf("cell failed: %v\n%s", rep, code)
	}
	return stream(t, outs, "stdout")
}

// pastedProgram is a whole program as a tutorial shows it: a package
// clause, imports, a type with methods, a type switch with interface cases,
// a labelled break out of a select, a defer in main.
const pastedProgram = `package main

import (
	"errors"
	"fmt"
	"io"
	"time"
)

type celsius float64

func (c celsius) String() string { return fmt.Sprintf("%.1f°C", float64(c)) }

func kind(v any) string {
	switch t := v.(type) {
	case nil:
		return "nil"
	case error:
		return "error " + t.Error()
	case fmt.Stringer:
		return "stringer " + t.String()
	case int, string:
		return fmt.Sprintf("int or string %v", t)
	default:
		return fmt.Sprintf("other %v", t)
	}
}

func main() {
	defer fmt.Println("main's defer runs last")
	for _, v := range []any{io.EOF, fmt.Errorf("wrapped: %w", io.EOF), time.Second, celsius(21.5), 3, "s", 2.5, nil} {
		fmt.Println(kind(v))
	}
	fmt.Println(errors.Is(fmt.Errorf("wrapped: %w", io.EOF), io.EOF))
	ch := make(chan int, 1)
	n := 0
loop:
	for {
		ch <- n
		select {
		case v := <-ch:
			if v == 3 {
				break loop
			}
		}
		n++
	}
	fmt.Println("left the loop at", n)
}
`

// TestPastedProgramRunsAsGoRun pastes a whole program into one cell and
// compares with go run; then checks that main does not run again after a
// later cell, and runs again when its cell runs again.
func TestPastedProgramRunsAsGoRun(t *testing.T) {
	want := goRun(t, pastedProgram)
	k := startKernel(t)
	if got := cellOutput(t, k, pastedProgram); got != want {
		t.Errorf("pasted program printed\n%s\ngo run printed\n%s", got, want)
	}
	if got := cellOutput(t, k, "x := 1\n_ = x"); got != "" {
		t.Errorf("a later cell ran main again: %q", got)
	}
	if got := cellOutput(t, k, pastedProgram); got != want {
		t.Errorf("the program's cell run again printed\n%s", got)
	}
}

// TestCellIsOneFunctionBody checks defer, shadowing and return at a cell's
// top level, and that what a cell declares stays defined.
func TestCellIsOneFunctionBody(t *testing.T) {
	k := startKernel(t)
	got := cellOutput(t, k, "total := 0\ndefer fmt.Println(\"deferred 1, total\", total)\ndefer func() { fmt.Println(\"deferred 2, total\", total) }()\n"+
		"for i := range []int{1, 2, 3} { total += i }\nfmt.Println(\"body done\")")
	if want := "body done\ndeferred 2, total 3\ndeferred 1, total 0\n"; got != want {
		t.Errorf("defers: got %q, want %q", got, want)
	}
	if got := cellOutput(t, k, "fmt.Println(total)"); got != "3\n" {
		t.Errorf("total in a later cell: %q", got)
	}
	got = cellOutput(t, k, "s := \"global\"\n{\n\ts := 5\n\ts++\n\tfmt.Println(s)\n}\nif s := 2.5; s > 1 { fmt.Println(s) }\nfmt.Println(s)")
	if want := "6\n2.5\nglobal\n"; got != want {
		t.Errorf("shadowing: got %q, want %q", got, want)
	}
	got = cellOutput(t, k, "fmt.Println(\"before\")\nif total == 3 {\n\treturn\n}\nfmt.Println(\"after\")")
	if got != "before\n" {
		t.Errorf("return at top level: %q", got)
	}
}

// TestFailedCellPoisonsNothing checks that a cell that panicked keeps what
// it set before the panic, drops what it did not reach, and that the names
// can be declared again with other types.
func TestFailedCellPoisonsNothing(t *testing.T) {
	k := startKernel(t)
	rep, outs := k.execute("kept := 41\nbad := []int{}[3]\nnever := 1\n_, _ = bad, never", nil)
	if rep["status"] != "error" || rep["evalue"] != "runtime error: index out of range" {
		t.Fatalf("reply = %v", rep)
	}
	if errs := ofType(outs, "error"); len(errs) != 1 || !strings.Contains(strings.Join(toStrings(decode(t, errs[0])["traceback"]), "\n"), "line 2, column 1") {
		t.Errorf("error output: %v", outs)
	}
	if got := cellOutput(t, k, "fmt.Println(kept + 1)"); got != "42\n" {
		t.Errorf("kept: %q", got)
	}
	rep, _ = k.execute("never", nil)
	if rep["status"] != "error" || !strings.HasPrefix(rep["evalue"].(string), "undefined: never") {
		t.Errorf("a name the failed cell did not reach: %v", rep)
	}
	if got := cellOutput(t, k, "bad := \"now a string\"\nnever := 2.5\nfmt.Println(bad, never)"); got != "now a string 2.5\n" {
		t.Errorf("declared again: %q", got)
	}
}

// TestRerunningACellKeepsMemoryFlat re-runs a cell that makes 100 MB fifty
// times and checks that the kernel's resident memory stays bounded: each
// run's slice replaces the last one.
func TestRerunningACellKeepsMemoryFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates 5 GB in total")
	}
	k := startKernel(t)
	cell := "big := make([]byte, 100<<20)\nfor i := 0; i < len(big); i += 4096 { big[i] = 1 }\nfmt.Sprint(len(big))"
	var first int
	for i := 0; i < 50; i++ {
		rep, _ := k.execute(cell, nil)
		if rep["status"] != "ok" {
			t.Fatalf("run %d: %v", i, rep)
		}
		if i == 4 {
			first = treeRSS(t, k.cmd.Process.Pid)
		}
	}
	last := treeRSS(t, k.cmd.Process.Pid)
	t.Logf("resident memory after 5 runs: %d MB, after 50: %d MB", first>>20, last>>20)
	if last > first+300<<20 {
		t.Errorf("resident memory grew from %d MB to %d MB over 45 runs of a 100 MB cell", first>>20, last>>20)
	}
}

// treeRSS is the resident memory of pid and its descendants, in bytes.
func treeRSS(t *testing.T, pid int) int {
	t.Helper()
	total := 0
	pids := []int{pid}
	for len(pids) > 0 {
		p := pids[0]
		pids = pids[1:]
		status, err := os.ReadFile("/proc/" + strconv.Itoa(p) + "/status")
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(status), "\n") {
			if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmRSS:" {
				kb, _ := strconv.Atoi(f[1])
				total += kb << 10
			}
		}
		children, _ := os.ReadFile("/proc/" + strconv.Itoa(p) + "/task/" + strconv.Itoa(p) + "/children")
		for _, c := range strings.Fields(string(children)) {
			if n, err := strconv.Atoi(c); err == nil {
				pids = append(pids, n)
			}
		}
	}
	return total
}

