package dispatch

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// heavy matches the packages the kernel process must not link: the engine,
// the interpreter and the symbol tables. The dispatcher speaks kernel/cellio
// to the engine process; importing one of these would put yaegi back into
// the kernel process (issue 19).
var heavy = regexp.MustCompile(`/kernel/engine\b|/kernel/session\b|/kernel/symbols\b|/kernel/symtypes\b|/kernel/compiled\b|traefik/yaegi`)

// TestImportsNoEngine fails when this package, through any chain of imports,
// depends on the engine, yaegi or the symbol tables again.
func TestImportsNoEngine(t *testing.T) {
	checkNoHeavyDeps(t, ".")
}

// checkNoHeavyDeps lists the dependencies of pkg with the go command and
// fails on each that heavy matches, naming it.
func checkNoHeavyDeps(t *testing.T, pkg string) {
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
	deps := strings.Fields(string(out))
	if len(deps) < 10 {
		t.Fatalf("go list -deps %s listed only %v: cannot judge the imports", pkg, deps)
	}
	for _, d := range deps {
		if heavy.MatchString(d) {
			t.Errorf("the kernel process imports %s: it must speak kernel/cellio only (go list -deps %s)", d, pkg)
		}
	}
}
