package stdlib

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/traefik/yaegi/interp"
)

// newInterp returns an interpreter loaded the way gocl's engine loads it:
// the tables, then the generic sources.
func newInterp(t *testing.T) (*interp.Interpreter, *bytes.Buffer) {
	t.Helper()
	var out bytes.Buffer
	in := interp.New(interp.Options{Stdout: &out, Stderr: &out, Unrestricted: true})
	if err := in.Use(Symbols); err != nil {
		t.Fatal(err)
	}
	for _, s := range Sources() {
		if _, err := in.Compile(s.Code); err != nil {
			t.Fatalf("compile the generic source of %s: %v", s.Path, err)
		}
	}
	return in, &out
}

// run interprets a whole program and returns what it printed.
func run(t *testing.T, src string) string {
	t.Helper()
	in, out := newInterp(t)
	if _, err := in.Eval(src); err != nil {
		t.Fatalf("%v\nprogram:\n%s", err, src)
	}
	return out.String()
}

func TestSourcesCompile(t *testing.T) {
	got := run(t, `package main

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
)

func main() {
	m := map[string]int{"b": 2, "a": 1, "c": 3}
	s := []int{3, 1, 2}
	slices.Sort(s)
	fmt.Println(s, slices.Sorted(maps.Keys(m)), slices.Index(s, 2), cmp.Compare(1, 2))
}
`)
	if want := "[1 2 3] [a b c] 1 -1\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestPullSaysWhy checks that iter.Pull, which needs the runtime's
// coroutines, fails with the message naming what to do instead.
func TestPullSaysWhy(t *testing.T) {
	in, _ := newInterp(t)
	_, err := in.Eval(`package main

import "iter"

func main() {
	var seq iter.Seq[int] = func(yield func(int) bool) { yield(1) }
	iter.Pull(seq)
}
`)
	if err == nil || !strings.Contains(err.Error(), "slices.Collect") {
		t.Errorf("iter.Pull: %v, want a panic naming slices.Collect", err)
	}
}

// TestGenericsMatchGo runs testdata/generics.go, which calls every function
// of cmp, maps and slices, with `go run` and in the interpreter, and
// compares what they print, line by line.
func TestGenericsMatchGo(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command to compare with")
	}
	src, err := os.ReadFile("testdata/generics.go")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "run", "testdata/generics.go")
	want, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go run: %v\n%s", err, want)
	}
	got := run(t, string(src))
	wl, gl := strings.Split(string(want), "\n"), strings.Split(got, "\n")
	for i := range max(len(wl), len(gl)) {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			t.Errorf("line %d:\n go run: %s\n  cells: %s", i+1, w, g)
		}
	}
}
