package cli

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/seed43a1e1ab/gocl/kernel/symbols"
	"github.com/seed43a1e1ab/gocl/kernel/symbols/stdlib"
	"github.com/seed43a1e1ab/gocl/kernel/symbols/stdlib/catalog"
)

func TestPackagesListsWhatCellsCanImport(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := Main([]string{"packages"}, &out, &errOut); code != 0 {
		t.Fatalf("gocl packages: exit %d: %s", code, errOut.String())
	}
	paths := importable(stdlib.Symbols, symbols.Symbols)
	for _, want := range []string{"fmt", "os/exec", "math/rand/v2", "iter", "slices", "maps", "cmp", "crypto/sha3",
		"github.com/seed43a1e1ab/gocl/clapi"} {
		if !slices.Contains(paths, want) {
			t.Errorf("%s is not listed as importable", want)
		}
		if !strings.Contains(out.String(), "\n  "+want) {
			t.Errorf("the listing lacks %s", want)
		}
	}
	for p, why := range catalog.Refused {
		if slices.Contains(paths, p) {
			t.Errorf("refused %s is listed as importable", p)
		}
		if !strings.Contains(out.String(), "  "+p+": "+why) {
			t.Errorf("the listing does not give the reason for %s", p)
		}
	}
	if slices.ContainsFunc(paths, func(p string) bool { return strings.Contains(p, "internal") || p == "." }) {
		t.Errorf("internal packages or yaegi's hooks are listed: %v", paths)
	}
}

func TestPackagesTakesNoArguments(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := Main([]string{"packages", "x"}, &out, &errOut); code != 2 {
		t.Errorf("exit %d, want 2", code)
	}
}
