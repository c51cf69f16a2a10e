package symbols

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed43a1e1ab/gocl/kernel/symbols/internal/generate"
)

// TestGeneratedUpToDate regenerates every generated table in this folder and
// fails when one differs from the file on disk. It runs only with
// GOCL_CHECK_GENERATED=1, as install.sh --test runs it: it is most of the
// time of go test ./... otherwise.
func TestGeneratedUpToDate(t *testing.T) {
	if os.Getenv("GOCL_CHECK_GENERATED") == "" {
		t.Skip("regenerating every table takes minutes of CPU: install.sh --test runs this with GOCL_CHECK_GENERATED=1")
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		have, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		ipath, ok := generate.ImportPathOf(have)
		if !ok {
			continue
		}
		n++
		if want := generate.FileName(ipath); f != want {
			t.Errorf("%s holds the table of %s but should be named %s", f, ipath, want)
		}
		want, err := generate.Table(ipath)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if !bytes.Equal(have, want) {
			t.Errorf("%s is out of date: run go generate ./kernel/symbols", f)
		}
	}
	if n == 0 {
		t.Fatal("no generated symbol table found: run go generate ./kernel/symbols")
	}
}

func TestDisplayTableLoaded(t *testing.T) {
	tab, ok := Symbols["github.com/seed43a1e1ab/gocl/kernel/display/display"]
	if !ok {
		t.Fatal("no table for kernel/display: run go generate ./kernel/symbols")
	}
	for _, name := range []string{"Publish", "Bundle", "Message"} {
		if _, ok := tab[name]; !ok {
			t.Errorf("display table lacks %s", name)
		}
	}
}
