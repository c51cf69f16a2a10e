package engine

import (
	"strings"
	"testing"
)

// TestRefusedImportsSayWhy checks that a standard package cells cannot
// import fails at its import line with the catalog's reason, and that the
// kernel keeps serving.
func TestRefusedImportsSayWhy(t *testing.T) {
	e := newEngine(t)
	for path, words := range map[string]string{
		"embed":                    "os.ReadFile",
		"weak":                     "garbage collector",
		"unique":                   "map[T]*T",
		"no/such/x":                "gocl packages",
		"github.com/traefik/yaegi": "gocl packages",
	} {
		err := fails(t, e, `import "`+path+`"`)
		expect(t, path+": error name", err.Name, "ImportError")
		if !strings.Contains(err.Value, words) {
			t.Errorf("import %q: %q does not say %q", path, err.Value, words)
		}
	}
	got, _ := ok(t, e, `1 + 1`)
	expect(t, "after refused imports", got, "2")
}

// TestNewStandardPackages imports packages that yaegi's own tables (Go 1.22)
// lack or restrict, and uses them.
func TestNewStandardPackages(t *testing.T) {
	e := newEngine(t)
	cells := map[string]string{
		"import \"os/exec\"\nout, _ := exec.Command(\"echo\", \"hi\").Output()\nstring(out)":                                  `"hi\n"`,
		"import \"math/rand/v2\"\nrand.New(rand.NewPCG(1, 2)).IntN(1000) < 1000":                                              "true",
		"import \"crypto/sha3\"\nfmt.Sprintf(\"%x\", sha3.Sum256([]byte(\"\")))[:8]":                                          `"a7ffc6f8"`,
		"import (\"iter\"; \"slices\")\nvar seq iter.Seq[int] = func(yield func(int) bool) { yield(4) }\nslices.Collect(seq)": "[4]",
		"import \"slices\"\ns := []int{3, 1, 2}\nslices.Sort(s)\ns":                                                           "[1 2 3]",
		"import (\"maps\"; \"slices\")\nslices.Sorted(maps.Keys(map[string]bool{\"b\": true, \"a\": true}))":                  "[a b]",
		"import \"structs\"\ntype hl struct { _ structs.HostLayout; X int }\nhl{X: 2}.X":                                      "2",
		"import \"unsafe\"\nunsafe.Sizeof(int64(0))":                                                                          "8",
	}
	for code, want := range cells {
		got, _ := ok(t, e, code)
		expect(t, code, got, want)
	}
}

// TestExitStillEndsOnlyTheCell checks that the engine's os.Exit, laid over
// the generated table, still wins.
func TestExitStillEndsOnlyTheCell(t *testing.T) {
	e := newEngine(t)
	err := fails(t, e, "import \"os\"\nos.Exit(4)")
	expect(t, "os.Exit", err.Name, "Exit")
	got, _ := ok(t, e, `"alive"`)
	expect(t, "after os.Exit", got, `"alive"`)
}

// TestVersionedImportIsNamedAsGoNamesIt checks that math/rand/v2 binds rand,
// so a second rand import gets the engine's clear error, not yaegi's.
func TestVersionedImportIsNamedAsGoNamesIt(t *testing.T) {
	e := newEngine(t)
	got, _ := ok(t, e, "import \"math/rand/v2\"\nrand.New(rand.NewPCG(1, 2)).IntN(10) < 10")
	expect(t, "math/rand/v2 as rand", got, "true")
	err := fails(t, e, `import "crypto/rand"`)
	expect(t, "second rand", err.Name, "ImportError")
	if !strings.Contains(err.Value, "under another name") {
		t.Errorf("import crypto/rand after math/rand/v2: %q", err.Value)
	}
	got, _ = ok(t, e, "import crand \"crypto/rand\"\nlen(crand.Text())")
	expect(t, "crypto/rand as crand", got, "26")
	for in, want := range map[string]string{"math/rand/v2": "rand", "fmt": "fmt", "go/version": "version", "v2": "v2", "a/v": "v"} {
		expect(t, "importName("+in+")", importName(in), want)
	}
}
