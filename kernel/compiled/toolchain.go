package compiled

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
)

// ModulePath is gocl's module path, the module every cell build requires.
const ModulePath = "github.com/seed43a1e1ab/gocl"

// ErrNoToolchain is the error of a compiled cell when no usable Go toolchain
// is found; the kernel keeps serving interpreted cells.
var ErrNoToolchain = errors.New("no Go toolchain")

// toolchain is what a plugin build needs to match the running binary.
type toolchain struct {
	goBin string   // the go command
	src   string   // gocl's source directory (the module the binary was built from)
	flags []string // build flags of the binary that change package contents
	env   []string // environment of the binary's build (CGO_*, GOAMD64, ...)
	deps  map[string]string
}

// findToolchain locates a go command of the binary's own version (GOCL_GO,
// else go on the PATH, else the GOROOT gocl was built with, else
// /usr/local/go) and the source gocl was built from.
func findToolchain() (*toolchain, error) {
	tc := &toolchain{deps: map[string]string{}}
	want := runtime.Version()
	var tried []string
	cands := []string{}
	if g := os.Getenv("GOCL_GO"); g != "" {
		cands = append(cands, g) // only the one named
	} else {
		if p, err := exec.LookPath("go"); err == nil {
			cands = append(cands, p)
		}
		if r := runtime.GOROOT(); r != "" {
			cands = append(cands, filepath.Join(r, "bin", "go"))
		}
		cands = append(cands, "/usr/local/go/bin/go")
	}
	for _, c := range cands {
		out, err := exec.Command(c, "env", "GOVERSION").Output()
		if err != nil {
			continue
		}
		v := strings.TrimSpace(string(out))
		if v == want {
			tc.goBin = c
			break
		}
		tried = append(tried, c+" is "+v)
	}
	if tc.goBin == "" {
		msg := fmt.Sprintf("compiled cells are built by the Go toolchain that built gocl (%s), and none was found", want)
		if len(tried) > 0 {
			msg += " (" + strings.Join(tried, "; ") + ")"
		}
		return nil, fmt.Errorf("%w: %s. Install %s from https://go.dev/dl/ and put its bin directory on the kernel's PATH (or name it in GOCL_GO), "+
			"or rebuild gocl with the Go you have; interpreted cells work without it", ErrNoToolchain, msg, want)
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return nil, errors.New("this gocl binary has no build information, so a compiled cell cannot be built to match it; rebuild gocl with go build")
	}
	for _, d := range bi.Deps {
		v := d.Version
		if d.Replace != nil {
			v = d.Replace.Version
		}
		tc.deps[d.Path] = v
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "-trimpath", "-race", "-msan", "-asan":
			if s.Value == "true" {
				tc.flags = append(tc.flags, s.Key)
			}
		case "-tags", "-gcflags", "-asmflags":
			tc.flags = append(tc.flags, s.Key+"="+s.Value)
		case "CGO_ENABLED", "CGO_CFLAGS", "CGO_CPPFLAGS", "CGO_CXXFLAGS", "CGO_LDFLAGS", "GOAMD64", "GOARM64", "GOEXPERIMENT":
			tc.env = append(tc.env, s.Key+"="+s.Value)
		}
	}
	src, err := sourceDir(bi, tc.goBin)
	if err != nil {
		return nil, err
	}
	tc.src = src
	return tc, nil
}

// sourceDir finds gocl's source: GOCL_SRC, else the directory this file was
// compiled from (a plain go build records it), else the module cache copy
// of the binary's version (go install ...@version).
func sourceDir(bi *debug.BuildInfo, goBin string) (string, error) {
	isGocl := func(dir string) bool {
		b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		return err == nil && bytes.Contains(b, []byte("module "+ModulePath+"\n"))
	}
	if d := os.Getenv("GOCL_SRC"); d != "" {
		if isGocl(d) {
			return d, nil
		}
		return "", fmt.Errorf("GOCL_SRC=%s is not gocl's source directory (no go.mod of module %s there)", d, ModulePath)
	}
	if _, file, _, ok := runtime.Caller(0); ok && filepath.IsAbs(file) {
		d := filepath.Dir(filepath.Dir(filepath.Dir(file))) // kernel/compiled/toolchain.go
		if isGocl(d) {
			return d, nil
		}
	}
	if v := bi.Main.Version; bi.Main.Path == ModulePath && v != "" && v != "(devel)" {
		out, err := exec.Command(goBin, "env", "GOMODCACHE").Output()
		if err == nil {
			d := filepath.Join(strings.TrimSpace(string(out)), ModulePath+"@"+v)
			if isGocl(d) {
				return d, nil
			}
		}
	}
	return "", errors.New("gocl's source directory was not found, and compiled cells are built against it (so that cl is one package on both sides): " +
		"set GOCL_SRC to the directory gocl was built from")
}
