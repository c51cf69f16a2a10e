package conformance

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"
)

// GoRun is what the go command makes of one of yaegi's programs: built by
// `go build` and run as `go run` runs it. yaegi's programs declare yaegi's
// output, which in a few programs is not Go's (the loop variables of Go
// before 1.22, yaegi's restricted mode, yaegi's names of unexported fields);
// where gocl differs from the declaration, Go decides (see GoAnswer).
type GoRun struct {
	// Built is false when the go command does not compile the program
	// (a declared compile error, or an import of yaegi's _test tree).
	Built bool
	// BuildError is the go command's first compile error, without its
	// position ("time redeclared in this block"), when it does not build.
	BuildError string
	// Output is what the program wrote, standard output and standard error
	// together as one terminal shows them (println writes to standard
	// error, and yaegi's declarations count it as output), up to a panic's
	// report, trimmed as yaegi's test trims.
	Output string
	// Panic is the message of the panic that ended the program, or "".
	Panic string
	// Exit is the status the program ended with when it called os.Exit.
	Exit int
}

// RunGo builds the program at path with the go command into dir and runs
// it. A program that does not build is returned with Built false; one that
// outlives limit is an error.
func RunGo(path, dir string, limit time.Duration) (GoRun, error) {
	bin := filepath.Join(dir, strings.TrimSuffix(filepath.Base(path), ".go"))
	build := exec.Command("go", "build", "-o", bin, path)
	build.Dir = dir // outside any module: the program is one file of the standard library's imports
	if out, err := build.CombinedOutput(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return GoRun{BuildError: firstCompileError(string(out))}, nil
		}
		return GoRun{}, fmt.Errorf("go build %s: %v: %s", path, err, out)
	}
	defer os.Remove(bin)
	var out bytes.Buffer
	err := runGoBinary(bin, dir, limit, &out)
	if err != nil && !isExit(err) {
		return GoRun{}, err
	}
	r := GoRun{Built: true, Output: out.String()}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		r.Exit = ee.ExitCode()
		if i := panicAt(r.Output); i >= 0 {
			msg, _, _ := strings.Cut(r.Output[i+len("panic: "):], "\n")
			r.Output, r.Panic, r.Exit = r.Output[:i], strings.TrimSuffix(msg, " [recovered]"), 0
		}
	}
	r.Output = strings.TrimSpace(r.Output)
	return r, nil
}

// runGoBinary runs a built program in dir with its standard output and
// error going to out, in order, within limit.
func runGoBinary(bin, dir string, limit time.Duration, out *bytes.Buffer) error {
	cmd := exec.Command(bin)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = out, out
	hung, err := runLimited(cmd, limit)
	if hung {
		return fmt.Errorf("%s ran longer than %v", bin, limit)
	}
	return err
}

// isExit reports whether err says that a program exited with a status.
func isExit(err error) bool {
	var ee *exec.ExitError
	return errors.As(err, &ee)
}

// compileErrorRE matches a compile error of the go command: position, then
// the message.
var compileErrorRE = regexp.MustCompile(`(?m)^\S+:\d+:\d+: (.+)$`)

// firstCompileError is the message of the first compile error in the go
// command's output, or "".
func firstCompileError(out string) string {
	if m := compileErrorRE.FindStringSubmatch(out); m != nil {
		return m[1]
	}
	return ""
}

// logTimeRE matches the date and time that log's standard flags print.
var logTimeRE = regexp.MustCompile(`(?m)^\d{4}/\d\d/\d\d \d\d:\d\d:\d\d `)

// sameTimes replaces the times log printed in s with one text, so that two
// runs' logs compare.
func sameTimes(s string) string { return logTimeRE.ReplaceAllString(s, "TIME ") }

// panicAt is where the runtime's report of an unrecovered panic starts in
// out (a line beginning "panic: "), or -1.
func panicAt(out string) int {
	if strings.HasPrefix(out, "panic: ") {
		return 0
	}
	if i := strings.LastIndex(out, "\npanic: "); i >= 0 {
		return i + 1
	}
	return -1
}

// Agrees reports whether a gocl run did what the go command did: for a
// program it does not build, an error that says what the go command's
// first error says, before any output; otherwise the same output (standard
// output and error together, as a terminal and a notebook show them,
// trimmed, with the times that log prints made alike), and the same end:
// none, the same panic, or the same os.Exit status (gocl ends the cell with
// "os.Exit(N) was called").
func (g GoRun) Agrees(o Outcome) bool {
	if o.Hung || o.Crashed {
		return false
	}
	if !g.Built {
		return g.BuildError != "" && o.Stdout == "" && strings.Contains(o.Err, g.BuildError)
	}
	if sameTimes(strings.TrimSpace(o.Output)) != sameTimes(g.Output) {
		return false
	}
	switch {
	case g.Panic != "":
		return strings.Contains(o.Err, g.Panic)
	case g.Exit != 0:
		return strings.Contains(o.Err, fmt.Sprintf("os.Exit(%d)", g.Exit))
	}
	return o.Err == ""
}

// GoOracle runs each of yaegi's programs with the go command at most once,
// when first asked, and only for programs that the go command can build
// alone (no import outside the standard library): the go command is the
// oracle only where gocl differs from the declaration, a handful of
// programs, so that the corpus stays quick.
type GoOracle struct {
	// Dir is a scratch directory for the binaries.
	Dir string
	// Limit bounds each program's run.
	Limit time.Duration

	mu   sync.Mutex
	runs map[string]*goRunOnce
}

type goRunOnce struct {
	once sync.Once
	run  GoRun
	err  error
}

// Run returns the go command's run of p (Built false for a program that
// imports yaegi's _test tree or a GOPATH package).
func (g *GoOracle) Run(p YaegiProgram) (GoRun, error) {
	if p.ImportsNonStandard() || p.GoPath != "" {
		return GoRun{}, nil
	}
	g.mu.Lock()
	if g.runs == nil {
		g.runs = map[string]*goRunOnce{}
	}
	r, ok := g.runs[p.Name]
	if !ok {
		r = &goRunOnce{}
		g.runs[p.Name] = r
	}
	g.mu.Unlock()
	r.once.Do(func() { r.run, r.err = RunGo(p.Path, g.Dir, g.Limit) })
	return r.run, r.err
}
