package boundary

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// heavy matches the packages the kernel process must not link: the engine,
// the interpreter and the symbol tables. Importing one of these would put
// yaegi back into the kernel process.
var heavy = regexp.MustCompile(`/kernel/engine\b|/kernel/session\b|/kernel/symbols\b|/kernel/symtypes\b|/kernel/compiled\b|traefik/yaegi`)

// kernelProcess lists the packages that run in the kernel process and speak
// kernel/cellio to the engine.
var kernelProcess = []string{
	"github.com/seed43a1e1ab/gocl/kernel/dispatch",
	"github.com/seed43a1e1ab/gocl/kernel/nbrun",
}

// TestKernelProcessImportsNoEngine fails when a package of the kernel
// process, through any chain of imports, depends on the engine, yaegi or the
// symbol tables again, naming the package and the import.
func TestKernelProcessImportsNoEngine(t *testing.T) {
	for _, pkg := range kernelProcess {
		t.Run(filepath.Base(pkg), func(t *testing.T) {
			for _, d := range deps(t, pkg) {
				if heavy.MatchString(d) {
					t.Errorf("%s imports %s: the kernel process must speak kernel/cellio only (go list -deps %s)", pkg, d, pkg)
				}
			}
		})
	}
}

// TestHeavyMatchesTheEngine keeps the check honest: the engine package's own
// dependencies must be caught by heavy.
func TestHeavyMatchesTheEngine(t *testing.T) {
	for _, d := range deps(t, "github.com/seed43a1e1ab/gocl/kernel/engine") {
		if heavy.MatchString(d) {
			return
		}
	}
	t.Fatal("heavy matches none of kernel/engine's dependencies: the pattern no longer names the engine's packages")
}

// deps lists the dependencies of pkg with the go command.
func deps(t *testing.T, pkg string) []string {
	t.Helper()
	goCmd := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := exec.LookPath(goCmd); err != nil {
		goCmd = "go"
	}
	out, err := exec.Command(goCmd, "list", "-deps", "-f", "{{.ImportPath}}", pkg).Output()
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = string(ee.Stderr)
		}
		t.Fatalf("go list -deps %s: %v\n%s", pkg, err, msg)
	}
	d := strings.Fields(string(out))
	if len(d) < 10 {
		t.Fatalf("go list -deps %s listed only %v: cannot judge the imports", pkg, d)
	}
	return d
}
