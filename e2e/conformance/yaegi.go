package conformance

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/build"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
	"github.com/traefik/yaegi/stdlib/unsafe"
)

// yaegiModule is the module whose _test programs form the corpus.
const yaegiModule = "github.com/traefik/yaegi"

// YaegiProgram is one of yaegi's test programs.
type YaegiProgram struct {
	// Name is the file name, "closure9.go".
	Name string
	// Path is the file's absolute path in the module cache.
	Path string
	// Want is what the program's trailing comment declares, trimmed as
	// yaegi's own test trims it.
	Want Want
	// GoPath is the GOPATH the comment asks for ("GOPATH:testdata/x"),
	// absolute, or "" for the default.
	GoPath string
	// Imports are the import paths of the program.
	Imports []string
}

// ImportsNonStandard reports whether the program imports a package outside
// the standard library (a path whose first element has a dot, such as
// github.com/traefik/yaegi/_test/foo).
func (p YaegiProgram) ImportsNonStandard() bool {
	for _, imp := range p.Imports {
		first, _, _ := strings.Cut(imp, "/")
		if strings.Contains(first, ".") {
			return true
		}
	}
	return false
}

// YaegiTestDir returns the _test directory of the yaegi version that go.mod
// requires, in the module cache (`go env GOMODCACHE`/github.com/traefik/
// yaegi@VERSION/_test), as `go list -m` resolves it from moduleDir.
func YaegiTestDir(moduleDir string) (string, error) {
	cmd := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", yaegiModule)
	cmd.Dir = moduleDir
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			err = fmt.Errorf("%v: %s", err, ee.Stderr)
		}
		return "", fmt.Errorf("locate %s in the module cache (go list -m): %w; run `go mod download` first", yaegiModule, err)
	}
	dir := filepath.Join(strings.TrimSpace(string(out)), "_test")
	if _, err := os.Stat(dir); err != nil {
		return "", fmt.Errorf("yaegi's test programs: %w (is the module fully downloaded? `go mod download %s`)", err, yaegiModule)
	}
	return dir, nil
}

// YaegiPrograms reads the programs of dir that declare an output or an
// error, sorted by name, and names the others (yaegi's test skips them too).
func YaegiPrograms(dir string) (progs []YaegiProgram, undeclared []string, err error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, err
	}
	for _, e := range entries {
		if e.IsDir() || filepath.Ext(e.Name()) != ".go" {
			continue
		}
		p := filepath.Join(dir, e.Name())
		w, gopath, imports, ok, err := declared(p)
		if err != nil {
			return nil, nil, err
		}
		if !ok {
			undeclared = append(undeclared, e.Name())
			continue
		}
		if gopath != "" {
			gopath = filepath.Join(dir, gopath)
		}
		progs = append(progs, YaegiProgram{Name: e.Name(), Path: p, Want: w, GoPath: gopath, Imports: imports})
	}
	sort.Slice(progs, func(i, j int) bool { return progs[i].Name < progs[j].Name })
	return progs, undeclared, nil
}

// positionRE matches the position that starts a compile error,
// "_test/op7.go:11:5: " or "6:2: ".
var positionRE = regexp.MustCompile(`^(\S*?:)?\d+:\d+: `)

// declared reads what a program's last comment declares, the way yaegi's
// interp_file_test.go does: "GOPATH:dir" optionally, then "Output:" or
// "Error:" and the text. An expected error is reduced to the message of its
// first line, without the position, so that a cell (whose lines and file
// name differ) can match it.
func declared(path string) (w Want, gopath string, imports []string, ok bool, err error) {
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ParseComments)
	if err != nil && f == nil {
		return w, "", nil, false, fmt.Errorf("parse %s: %w", path, err)
	}
	for _, imp := range f.Imports {
		imports = append(imports, strings.Trim(imp.Path.Value, "\"`"))
	}
	if len(f.Comments) == 0 {
		return w, "", nil, false, nil
	}
	text := f.Comments[len(f.Comments)-1].Text()
	if rest, found := strings.CutPrefix(text, "GOPATH:"); found {
		gopath, text, _ = strings.Cut(rest, "\n")
	}
	if out, found := strings.CutPrefix(text, "Output:\n"); found {
		return Want{Stdout: strings.TrimSpace(out)}, gopath, imports, true, nil
	}
	if msg, found := strings.CutPrefix(text, "Error:\n"); found {
		msg, _, _ = strings.Cut(strings.TrimSpace(msg), "\n")
		msg = positionRE.ReplaceAllString(msg, "")
		return Want{Error: msg}, gopath, imports, true, nil
	}
	return w, "", nil, false, nil
}

// The environment variables that turn a process (the test binary,
// re-executed) into a plain-yaegi runner for one program: the program's
// path, its GOPATH ("" for the default), and the file for the JSON result.
const (
	yaegiChildEnv  = "GOCL_CONFORMANCE_YAEGI"
	yaegiGoPathEnv = "GOCL_CONFORMANCE_GOPATH"
	yaegiResultEnv = "GOCL_CONFORMANCE_RESULT"
)

// ServeYaegiChild runs one program with plain yaegi and exits, when the
// process was started by RunYaegi; otherwise it returns at once. Call it
// first thing in TestMain.
func ServeYaegiChild() {
	prog, ok := os.LookupEnv(yaegiChildEnv)
	if !ok {
		return
	}
	o := evalYaegi(prog, os.Getenv(yaegiGoPathEnv))
	b, _ := json.Marshal(o)
	if err := os.WriteFile(os.Getenv(yaegiResultEnv), b, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Exit(0)
}

// evalYaegi runs a program as yaegi's TestFile does: interp.New with the
// GOPATH, stdout and stderr buffers, interp.Symbols, stdlib.Symbols and
// unsafe.Symbols, YAEGI_SPECIAL_STDIO=1, then EvalPath.
func evalYaegi(path, gopath string) Outcome {
	os.Setenv("YAEGI_SPECIAL_STDIO", "1")
	if gopath == "" {
		gopath = build.Default.GOPATH
	}
	var stdout, stderr bytes.Buffer
	i := interp.New(interp.Options{GoPath: gopath, Stdout: &stdout, Stderr: &stderr})
	for _, syms := range []interp.Exports{interp.Symbols, stdlib.Symbols, unsafe.Symbols} {
		if err := i.Use(syms); err != nil {
			return Outcome{Err: "load symbols: " + err.Error()}
		}
	}
	_, err := i.EvalPath(path)
	o := Outcome{Stdout: stdout.String()}
	if err != nil {
		o.Err = err.Error()
		var p interp.Panic
		o.Runtime = errors.As(err, &p)
	}
	return o
}

// YaegiGoPath makes, under dir, the GOPATH that yaegi's tests find around
// themselves when they run in yaegi's own source tree: src/github.com/
// traefik/yaegi is the module, so that programs importing
// github.com/traefik/yaegi/_test/foo find it. It returns the GOPATH.
func YaegiGoPath(dir, testDir string) (string, error) {
	link := filepath.Join(dir, "src", filepath.FromSlash(yaegiModule))
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		return "", err
	}
	if err := os.Symlink(filepath.Dir(testDir), link); err != nil {
		return "", err
	}
	return dir, nil
}

// RunYaegi runs prog with plain yaegi in a child process (self, re-executed
// with ServeYaegiChild's variables) and returns what it did; a child that
// outlives limit is killed and the run counts as hung. gopath is used when
// the program names none.
func RunYaegi(self string, prog YaegiProgram, gopath string, limit time.Duration) Outcome {
	if prog.GoPath != "" {
		gopath = prog.GoPath
	}
	tmp, err := os.CreateTemp("", "yaegi-result-*.json")
	if err != nil {
		return Outcome{Crashed: true, Err: err.Error()}
	}
	result := tmp.Name()
	tmp.Close()
	defer os.Remove(result)
	// yaegi's tests run in interp/ and name programs ../_test/NAME; the
	// same here, so that positions in output read as in yaegi's test.
	dir := filepath.Join(filepath.Dir(filepath.Dir(prog.Path)), "interp")
	rel := filepath.Join("..", "_test", prog.Name)
	cmd := exec.Command(self)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), yaegiChildEnv+"="+rel, yaegiGoPathEnv+"="+gopath, yaegiResultEnv+"="+result)
	var errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &errOut, &errOut
	hung, err := runLimited(cmd, limit)
	if hung {
		return Outcome{Hung: true}
	}
	b, rerr := os.ReadFile(result)
	var o Outcome
	if rerr != nil || len(b) == 0 || json.Unmarshal(b, &o) != nil {
		return Outcome{Crashed: true, Err: fmt.Sprintf("the yaegi child died (%v): %s", err, tail(errOut.String(), 2000))}
	}
	// As yaegi's test: trimmed, with the program's path removed.
	o.Stdout = strings.ReplaceAll(strings.TrimSpace(o.Stdout), rel+":", "")
	return o
}

// tail returns the last n bytes of s.
func tail(s string, n int) string {
	if len(s) > n {
		return "..." + s[len(s)-n:]
	}
	return s
}
