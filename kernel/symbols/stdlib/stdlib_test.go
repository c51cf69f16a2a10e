package stdlib

import (
	"bytes"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/seed43a1e1ab/gocl/kernel/symbols/internal/generate"
	"github.com/seed43a1e1ab/gocl/kernel/symbols/stdlib/catalog"
)

// TestGeneratedUpToDate regenerates the table of every standard package
// with yaegi's extractor, for the go command on the PATH, and fails when a
// file on disk differs, is missing, or belongs to no package any more. It
// runs only with GOCL_CHECK_GENERATED=1, as install.sh --test runs it.
func TestGeneratedUpToDate(t *testing.T) {
	if os.Getenv("GOCL_CHECK_GENERATED") == "" {
		t.Skip("regenerating every table takes minutes of CPU: install.sh --test runs this with GOCL_CHECK_GENERATED=1")
	}
	std, err := generate.StdList()
	if err != nil {
		t.Skip(err)
	}
	want, err := generate.StdTables(std, runtime.GOMAXPROCS(0))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, f := range want {
		seen[f.Name] = true
		have, err := os.ReadFile(f.Name)
		if err != nil {
			t.Errorf("%s is missing: run go generate ./kernel/symbols/stdlib", f.Name)
			continue
		}
		if !bytes.Equal(have, f.Src) {
			t.Errorf("%s is out of date for %s: run go generate ./kernel/symbols/stdlib", f.Name, runtime.Version())
		}
	}
	files, _ := filepath.Glob("*.go")
	for _, name := range files {
		src, _ := os.ReadFile(name)
		if _, gen := generate.ImportPathOf(src); gen && !seen[name] {
			t.Errorf("%s is the table of a package that is gone: run go generate ./kernel/symbols/stdlib", name)
		}
	}
	if len(want) < 150 {
		t.Errorf("only %d tables: is `go list std` complete?", len(want))
	}
}

// exported returns the exported top-level functions and types of the Go
// files in dir (tests excluded), for the current platform.
func exported(t *testing.T, files []string) []string {
	t.Helper()
	fset := token.NewFileSet()
	set := map[string]bool{}
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil && d.Name.IsExported() {
					set[d.Name.Name] = true
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					if ts, ok := s.(*ast.TypeSpec); ok && ts.Name.IsExported() {
						set[ts.Name.Name] = true
					}
				}
			}
		}
	}
	var out []string
	for n := range set {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// TestSourcesHaveGoAPI fails when a generic package of the Go on this
// machine has a function or type that its interpreted source lacks (a new
// Go added one), or the other way round.
func TestSourcesHaveGoAPI(t *testing.T) {
	srcs := Sources()
	if len(srcs) != len(catalog.Generic) {
		t.Fatalf("%d generic sources, catalog.Generic lists %d", len(srcs), len(catalog.Generic))
	}
	for i, s := range srcs {
		if s.Path != catalog.Generic[i] {
			t.Fatalf("source %s, catalog.Generic says %s", s.Path, catalog.Generic[i])
		}
		pkg, err := build.Import(s.Path, "", 0)
		if err != nil {
			t.Fatal(err)
		}
		var goFiles []string
		for _, f := range pkg.GoFiles {
			goFiles = append(goFiles, filepath.Join(pkg.Dir, f))
		}
		tmp := filepath.Join(t.TempDir(), s.Path+".go")
		if err := os.WriteFile(tmp, []byte(s.Code), 0o644); err != nil {
			t.Fatal(err)
		}
		want, have := exported(t, goFiles), exported(t, []string{tmp})
		if w, h := strings.Join(want, " "), strings.Join(have, " "); w != h {
			t.Errorf("%s: Go %s has\n  %s\nthe interpreted source has\n  %s", s.Path, runtime.Version(), w, h)
		}
	}
}

func TestCatalogNamesRealPackages(t *testing.T) {
	std, err := generate.StdList()
	if err != nil {
		t.Skip(err)
	}
	in := map[string]bool{}
	for _, p := range std {
		in[p] = true
	}
	for p := range catalog.Refused {
		if !in[p] {
			t.Errorf("catalog.Refused names %s, which is not a standard package of %s", p, runtime.Version())
		}
	}
	for p := range catalog.Notes {
		if !in[p] {
			t.Errorf("catalog.Notes names %s, which is not a standard package", p)
		}
	}
}
