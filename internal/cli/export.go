package cli

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"

	"golang.org/x/tools/go/packages"
)

// goclModule is the module path cells' cl, display and widgets come from.
const goclModule = "github.com/seed43a1e1ab/gocl"

const exportUsage = `usage: gocl export NOTEBOOK.ipynb [-o main.go]

Writes the notebook as a Go program that go run runs with the notebook's
output: declarations at package level, statements in main, in cell order.
Calls that only show something (display, widgets) are kept as comments.
The program is checked with go/types before it is written. When the output's
directory is in no Go module, a go.mod (and go.sum) is written beside it that
requires gocl from the source this binary was built from (GOCL_SRC overrides),
so "go run ." works there. Without -o the program goes to stdout.
`

func exportCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, exportUsage) }
	out := fs.String("o", "", "the Go file to write (default: stdout)")
	// Accept the notebook before or after the flags.
	var nb string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		nb, args = args[0], args[1:]
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if nb == "" && fs.NArg() > 0 {
		nb = fs.Arg(0)
	}
	if nb == "" || fs.NArg() > 1 || (nb != "" && fs.NArg() == 1 && fs.Arg(0) != nb) {
		fs.Usage()
		return 2
	}
	src, err := Export(nb, *out, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "gocl export: %s: %v\n", nb, err)
		return 1
	}
	if *out == "" {
		stdout.Write(src)
	}
	return 0
}

// Export writes the notebook nb as a Go program to out (when out is not
// empty) and returns its source. Notes for the user go to notes.
func Export(nb, out string, notes io.Writer) ([]byte, error) {
	srcDir, err := goclSource()
	if err != nil {
		return nil, err
	}
	// Type-check in a scratch module that requires gocl from srcDir.
	scratch, err := os.MkdirTemp("", "gocl-export-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(scratch)
	if err := writeModule(scratch, "goclexport", srcDir, false); err != nil {
		return nil, err
	}
	src, err := exportProgram(nb, packagesChecker(scratch))
	if err != nil {
		return nil, err
	}
	if out == "" {
		return src, nil
	}
	dir := filepath.Dir(out)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	if err := os.WriteFile(out, src, 0o644); err != nil {
		return nil, err
	}
	switch mod := enclosingModule(dir); {
	case mod == "":
		if err := writeModule(dir, progName(nb), srcDir, true); err != nil {
			return nil, fmt.Errorf("writing go.mod beside %s: %w", out, err)
		}
		fmt.Fprintf(notes, "gocl export: wrote %s and a go.mod beside it (gocl from %s); run it with: cd %s && go run .\n", out, srcDir, dir)
	case !moduleHasGocl(mod):
		fmt.Fprintf(notes, "gocl export: wrote %s; its module (%s) must require %s: go get %s (or export into a directory outside any module)\n", out, mod, goclModule, goclModule)
	default:
		fmt.Fprintf(notes, "gocl export: wrote %s\n", out)
	}
	return src, nil
}

// packagesChecker type-checks a file of package main in the module dir.
func packagesChecker(dir string) checker {
	return func(src string) (*token.FileSet, *ast.File, *types.Info, *types.Package, []error, error) {
		file := filepath.Join(dir, "main.go")
		fset := token.NewFileSet()
		cfg := &packages.Config{
			Mode:    packages.NeedName | packages.NeedTypes | packages.NeedTypesInfo | packages.NeedSyntax,
			Dir:     dir,
			Fset:    fset,
			Env:     append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "CGO_ENABLED=1"),
			Overlay: map[string][]byte{file: []byte(src)},
			Tests:   false,
		}
		pkgs, err := packages.Load(cfg, ".")
		if err != nil {
			return nil, nil, nil, nil, nil, fmt.Errorf("loading the program's packages (go list): %w", err)
		}
		if len(pkgs) != 1 || len(pkgs[0].Syntax) != 1 {
			var errs []error
			for _, p := range pkgs {
				for _, e := range p.Errors {
					errs = append(errs, e)
				}
			}
			return nil, nil, nil, nil, nil, fmt.Errorf("the program did not load: %w", errors.Join(errs...))
		}
		p := pkgs[0]
		// go list reports the compiler's errors too (as ListErrors); the
		// type checker's are the same, with positions in src.
		var errs, listErrs []error
		for _, e := range p.Errors {
			switch e.Kind {
			case packages.ParseError:
				return nil, nil, nil, nil, nil, fmt.Errorf("the program does not parse: %v", e)
			case packages.TypeError:
				errs = append(errs, e)
			default:
				listErrs = append(listErrs, e)
			}
		}
		if len(errs) == 0 {
			errs = listErrs
		}
		return fset, p.Syntax[0], p.TypesInfo, p.Types, errs, nil
	}
}

// writeModule writes go.mod and go.sum into dir: module name, requiring gocl
// replaced by srcDir.
// With tidy, go mod tidy then adds the requirements of the program in dir.
func writeModule(dir, name, srcDir string, tidy bool) error {
	goVer := "1.24"
	if mod, err := os.ReadFile(filepath.Join(srcDir, "go.mod")); err == nil {
		for _, l := range strings.Split(string(mod), "\n") {
			if v, ok := strings.CutPrefix(l, "go "); ok {
				goVer = strings.TrimSpace(v)
			}
		}
	}
	mod := fmt.Sprintf("module %s\n\ngo %s\n\nrequire %s v0.0.0-00010101000000-000000000000\n\nreplace %s => %s\n",
		name, goVer, goclModule, goclModule, srcDir)
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(mod), 0o644); err != nil {
		return err
	}
	sum, err := os.ReadFile(filepath.Join(srcDir, "go.sum"))
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644); err != nil {
		return err
	}
	if !tidy {
		return nil
	}
	// The requirements of gocl's dependencies, so that a plain go run
	// (-mod=readonly) builds it.
	cmd := exec.Command(goCommand(), "mod", "tidy")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go mod tidy in %s: %v\n%s", dir, err, out)
	}
	return nil
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

// goCommand is the go command: GOCL_GO, else go on the PATH.
func goCommand() string {
	if g := os.Getenv("GOCL_GO"); g != "" {
		return g
	}
	return "go"
}

// enclosingModule returns the go.mod governing dir, or "".
func enclosingModule(dir string) string {
	d, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	for {
		if m := filepath.Join(d, "go.mod"); fileExists(m) {
			return m
		}
		up := filepath.Dir(d)
		if up == d {
			return ""
		}
		d = up
	}
}

// moduleHasGocl reports whether the go.mod at path is gocl's or requires it.
func moduleHasGocl(path string) bool {
	b, err := os.ReadFile(path)
	return err == nil && bytes.Contains(b, []byte(goclModule))
}

// goclSource finds the source gocl was built from, which the program's
// go.mod points at: GOCL_SRC, else the directory this file was compiled
// from, else the module cache copy of the binary's version. (The same
// search as kernel/compiled's, for compiled cells.)
func goclSource() (string, error) {
	isGocl := func(dir string) bool {
		b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		return err == nil && bytes.Contains(b, []byte("module "+goclModule+"\n"))
	}
	if d := os.Getenv("GOCL_SRC"); d != "" {
		if isGocl(d) {
			return d, nil
		}
		return "", fmt.Errorf("GOCL_SRC=%s is not gocl's source directory (no go.mod of module %s there)", d, goclModule)
	}
	if _, file, _, ok := runtime.Caller(0); ok && filepath.IsAbs(file) {
		if d := filepath.Dir(filepath.Dir(filepath.Dir(file))); isGocl(d) { // internal/cli/export.go
			return d, nil
		}
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Path == goclModule && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		if out, err := exec.Command(goCommand(), "env", "GOMODCACHE").Output(); err == nil {
			if d := filepath.Join(strings.TrimSpace(string(out)), goclModule+"@"+bi.Main.Version); isGocl(d) {
				return d, nil
			}
		}
	}
	return "", errors.New("gocl's source directory was not found, and the exported program builds against it: set GOCL_SRC to the directory gocl was built from")
}

// progName is the notebook's file name without .ipynb, as a module name.
func progName(nb string) string {
	n := strings.TrimSuffix(filepath.Base(nb), ".ipynb")
	n = strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.' {
			return r
		}
		return '-'
	}, n)
	if n == "" {
		n = "notebook"
	}
	return n
}

func baseName(nb string) string { return filepath.Base(nb) }
