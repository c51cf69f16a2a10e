package stdexamples

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/seed43a1e1ab/gocl/e2e/conformance"
)

// GoRun builds ex with the go command and runs it as `go run` would, in a
// directory of its own under dir, and says what Go does: its standard
// output and the message of a panic that ends it. An example's "// Output:"
// comment was checked in its package's test binary, where some examples
// see another environment than a program does (the time package's tests
// set the local time zone to Pacific time); where the comment and go run
// differ, go run on this machine is the oracle.
func GoRun(ex Example, dir string, limit time.Duration) (conformance.Want, error) {
	d, err := os.MkdirTemp(dir, "gorun-")
	if err != nil {
		return conformance.Want{}, err
	}
	defer os.RemoveAll(d)
	if err := os.WriteFile(filepath.Join(d, "main.go"), []byte(ex.Source), 0o644); err != nil {
		return conformance.Want{}, err
	}
	bin := filepath.Join(d, "example")
	build := exec.Command("go", "build", "-o", bin, "main.go")
	build.Dir = d // outside any module: the program imports the standard library only
	build.Env = append(os.Environ(), "GOTOOLCHAIN=local", "GOFLAGS=")
	if out, err := build.CombinedOutput(); err != nil {
		return conformance.Want{}, fmt.Errorf("go build %s: %v: %s", ex.Name, err, out)
	}
	w, err := conformance.Oracle(bin, limit)
	if err != nil {
		return w, EnvError{err}
	}
	return w, nil
}

// EnvError is a program that the go command builds but that does not run
// to its end here: it exits (log.Fatal on a file of its package's testdata
// directory, which go test runs beside) or outlives the limit. Such an
// example has no oracle outside its package's directory.
type EnvError struct{ Err error }

func (e EnvError) Error() string { return "go run: " + e.Err.Error() }
