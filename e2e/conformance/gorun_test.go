package conformance

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestRunGo builds small programs with the go command and checks what
// RunGo says they did and what Agrees makes of gocl outcomes.
func TestRunGo(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs with the go command")
	}
	dir := t.TempDir()
	progs := map[string]string{
		"ok.go":    "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"a\"); println(\"b\") }\n",
		"panic.go": "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"a\"); var m map[string]int; m[\"x\"] = 1 }\n",
		"exit.go":  "package main\n\nimport (\"fmt\"; \"os\")\n\nfunc main() { defer fmt.Println(\"deferred\"); fmt.Println(\"a\"); os.Exit(3) }\n",
		"bad.go":   "package main\n\nfunc main() { x := 1 }\n",
	}
	for name, src := range progs {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := func(name string) GoRun {
		r, err := RunGo(filepath.Join(dir, name), dir, 30*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	if r := run("ok.go"); r != (GoRun{Built: true, Output: "a\nb"}) {
		t.Errorf("ok.go: %+v", r)
	}
	if r := run("panic.go"); r != (GoRun{Built: true, Output: "a", Panic: "assignment to entry in nil map"}) {
		t.Errorf("panic.go: %+v", r)
	}
	exit := run("exit.go")
	if exit != (GoRun{Built: true, Output: "a", Exit: 3}) {
		t.Errorf("exit.go: %+v", exit)
	}
	bad := run("bad.go")
	if bad != (GoRun{BuildError: "declared and not used: x"}) {
		t.Errorf("bad.go, which does not compile: %+v", bad)
	}

	for _, c := range []struct {
		name string
		g    GoRun
		o    Outcome
		want bool
	}{
		{"same output", GoRun{Built: true, Output: "a"}, Outcome{Stdout: "a", Output: "a\n"}, true},
		{"other output", GoRun{Built: true, Output: "a"}, Outcome{Stdout: "b", Output: "b"}, false},
		{"standard error too", GoRun{Built: true, Output: "a\nb"}, Outcome{Stdout: "a", Output: "a\nb"}, true},
		{"standard error missing", GoRun{Built: true, Output: "a\nb"}, Outcome{Stdout: "a", Output: "a"}, false},
		{"log's times", GoRun{Built: true, Output: "2026/01/02 03:04:05 x"}, Outcome{Output: "2027/11/12 13:14:15 x"}, true},
		{"log's text", GoRun{Built: true, Output: "2026/01/02 03:04:05 x"}, Outcome{Output: "2026/01/02 03:04:05 y"}, false},
		{"error where Go ends well", GoRun{Built: true, Output: "a"}, Outcome{Stdout: "a", Output: "a", Err: "panic: x"}, false},
		{"same panic", GoRun{Built: true, Panic: "boom"}, Outcome{Err: "panic: boom", Runtime: true}, true},
		{"no panic", GoRun{Built: true, Panic: "boom"}, Outcome{}, false},
		{"same exit", exit, Outcome{Stdout: "a", Output: "a", Err: "Exit: os.Exit(3) was called; the cell stopped"}, true},
		{"other exit", exit, Outcome{Stdout: "a", Output: "a", Err: "Exit: os.Exit(1) was called"}, false},
		{"not built", GoRun{}, Outcome{}, false},
		{"Go's compile error", bad, Outcome{Err: "CompileError: declared and not used: x\n  line 3"}, true},
		{"another compile error", bad, Outcome{Err: "CompileError: undefined: y"}, false},
		{"no compile error", bad, Outcome{}, false},
		{"hung", GoRun{Built: true}, Outcome{Hung: true}, false},
	} {
		if got := c.g.Agrees(c.o); got != c.want {
			t.Errorf("%s: Agrees = %v, want %v", c.name, got, c.want)
		}
	}
}
