package conformance

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRefusedOracle checks the oracle of the programs Go refuses: the go
// command's one compile error is what gocl must say; a tagged program that
// builds, or that has more than one error, is refused by the harness.
func TestRefusedOracle(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name+".go")
		src := "//go:build " + RefusedTag + "\n\npackage main\n\nfunc main() {\n" + body + "}\n"
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		if !isRefused(src) {
			t.Fatalf("isRefused(%q) = false", src)
		}
		return p
	}
	w, err := RefusedOracle(write("one", "\tvar x int8 = 200\n\t_ = x\n"), dir)
	if want := "cannot use 200 (untyped int constant) as int8 value in variable declaration (overflows)"; err != nil || w.Error != want {
		t.Errorf("one error: got %+v, %v; want the error %q", w, err, want)
	}
	if _, err := RefusedOracle(write("builds", "\tprintln(1)\n"), dir); err == nil {
		t.Error("a tagged program that builds: no error")
	}
	if _, err := RefusedOracle(write("two", "\tvar x int8 = 200\n\tvar y uint8 = 256\n\t_, _ = x, y\n"), dir); err == nil {
		t.Error("a tagged program with two compile errors: no error")
	}
	if isRefused("package main\n") {
		t.Error("isRefused of an untagged program = true")
	}
}
