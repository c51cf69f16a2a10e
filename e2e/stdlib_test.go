package e2e

// The standard library of the Go that built gocl, in cells: each program
// imports a package (or uses an API) that yaegi's own Go 1.22 tables lack,
// runs as a cell through `gocl run`, and must print what `go run` prints.

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// stdCase is a program in notebook form: its imports, and the body of main
// as top-level statements.
type stdCase struct {
	name    string
	imports []string
	body    string
}

var stdCases = []stdCase{
	{"os/exec", []string{"fmt", "os/exec"}, `
execOut, execErr := exec.Command("sh", "-c", "echo from a child; exit 3").Output()
var exitErr *exec.ExitError
fmt.Printf("%q %v %v\n", execOut, execErr, errors.As(execErr, &exitErr))
_, lookErr := exec.LookPath("no-such-command-gocl")
fmt.Println(errors.Is(lookErr, exec.ErrNotFound))`},
	{"math/rand/v2", []string{"fmt", "math/rand/v2"}, `
rng := rand.New(rand.NewPCG(1, 2))
fmt.Println(rng.IntN(1000), rng.Float64(), rng.Perm(5))
chacha := rand.New(rand.NewChaCha8([32]byte{7}))
fmt.Println(chacha.Uint64(), chacha.Int64N(99))`},
	{"iter", []string{"fmt", "iter", "slices"}, `
var evens iter.Seq[int] = func(yield func(int) bool) {
	for i := 0; i < 10; i += 2 {
		if !yield(i) {
			return
		}
	}
}
var pairs iter.Seq2[string, int] = func(yield func(string, int) bool) { yield("a", 1) }
pairs(func(k string, v int) bool { fmt.Println(k, v); return true })
fmt.Println(slices.Collect(evens))`},
	{"slices", []string{"fmt", "slices"}, `
nums := []int{5, 2, 8, 1}
slices.Sort(nums)
i8, found8 := slices.BinarySearch(nums, 8)
fmt.Println(nums, slices.Index(nums, 8), i8, found8, slices.Max(nums), slices.Contains(nums, 3))
fmt.Println(slices.Repeat([]string{"ab"}, 3), slices.Concat(nums, []int{9}))`},
	{"maps", []string{"fmt", "maps", "slices"}, `
ages := map[string]int{"bob": 31, "ann": 27, "cy": 40}
fmt.Println(slices.Sorted(maps.Keys(ages)), slices.Sorted(maps.Values(ages)))
var agesCopy map[string]int
agesCopy = maps.Clone(ages)
maps.DeleteFunc(agesCopy, func(k string, v int) bool { return v > 30 })
fmt.Println(agesCopy, maps.Equal(ages, agesCopy))`},
	{"cmp", []string{"cmp", "fmt"}, `
fmt.Println(cmp.Compare(2, 1), cmp.Compare("a", "b"), cmp.Less(float64(1.5), 2.5), cmp.Or("", "default"))`},
	{"crypto/sha3, hkdf, pbkdf2", []string{"crypto/hkdf", "crypto/pbkdf2", "crypto/sha256", "crypto/sha3", "fmt"}, `
fmt.Printf("%x\n", sha3.Sum256([]byte("gocl")))
hk, hkErr := hkdf.Key(sha256.New, []byte("secret"), []byte("salt"), "info", 16)
fmt.Printf("%x %v\n", hk, hkErr)
pk, pkErr := pbkdf2.Key(sha256.New, "password", []byte("salt"), 1000, 16)
fmt.Printf("%x %v\n", pk, pkErr)`},
	{"crypto/mlkem", []string{"crypto/mlkem", "fmt"}, `
dk, dkErr := mlkem.GenerateKey768()
shared, ct := dk.EncapsulationKey().Encapsulate()
back, decErr := dk.Decapsulate(ct)
fmt.Println(dkErr, decErr, len(ct), string(shared) == string(back))`},
	{"crypto/rand.Text", []string{`crand "crypto/rand"`, "fmt"}, `
fmt.Println(len(crand.Text()))`},
	{"structs", []string{"fmt", "structs"}, `
type hostPoint struct {
	_    structs.HostLayout
	X, Y float32
}
fmt.Println(hostPoint{X: 1, Y: 2}.Y)`},
	{"go/version", []string{"fmt", "go/version"}, `
fmt.Println(version.Compare("go1.22", "go1.26"), version.Lang("go1.26.8"), version.IsValid("go1.26"))`},
	{"strings and bytes iterators", []string{"bytes", "fmt", "strings"}, `
strings.Lines("one\ntwo\n")(func(l string) bool { fmt.Printf("%q\n", l); return true })
strings.SplitSeq("a,b,c", ",")(func(s string) bool { fmt.Print(s, ";"); return true })
fmt.Println()
bytes.FieldsSeq([]byte(" x  y "))(func(b []byte) bool { fmt.Printf("%s|", b); return true })
fmt.Println()`},
	{"os.Root", []string{"fmt", "os", "path/filepath"}, `
rootDir, _ := os.MkdirTemp("", "gocl-root")
os.WriteFile(filepath.Join(rootDir, "f.txt"), []byte("inside"), 0o644)
root, rootErr := os.OpenRoot(rootDir)
inside, readErr := root.ReadFile("f.txt")
_, escErr := root.Open("../../etc/passwd")
fmt.Println(rootErr, string(inside), readErr, escErr != nil)
root.Close()
os.RemoveAll(rootDir)`},
	{"sync.WaitGroup.Go", []string{"fmt", "sync", "sync/atomic"}, `
var wg sync.WaitGroup
var hits atomic.Int64
for w := 0; w < 8; w++ {
	wg.Go(func() { hits.Add(1) })
}
wg.Wait()
fmt.Println(hits.Load())`},
	{"syscall and unsafe", []string{"fmt", "syscall", "unsafe"}, `
fmt.Println(syscall.Getpid() > 0, unsafe.Sizeof(int32(0)), unsafe.Sizeof(struct{ a, b int64 }{}))`},
}

// program is c as a whole Go program.
func (c stdCase) program() string {
	var b strings.Builder
	b.WriteString("package main\n\nimport (\n")
	imports := append([]string{}, c.imports...)
	if strings.Contains(c.body, "errors.") {
		imports = append(imports, "errors")
	}
	for _, p := range imports {
		writeImport(&b, p)
	}
	b.WriteString(")\n\nfunc main() {")
	b.WriteString(c.body)
	b.WriteString("\n}\n")
	return b.String()
}

// cell is c in notebook form: the imports, then the body as top-level
// statements (a type declared in the body stays where it is, as in a cell).
func (c stdCase) cell() string {
	var b strings.Builder
	b.WriteString("import (\n")
	for _, p := range c.imports {
		writeImport(&b, p)
	}
	b.WriteString(")\n")
	b.WriteString(strings.TrimPrefix(c.body, "\n"))
	return b.String()
}

// writeImport writes one import line: a path, or a name and a quoted path.
func writeImport(b *strings.Builder, p string) {
	if strings.Contains(p, " ") {
		fmt.Fprintf(b, "\t%s\n", p)
		return
	}
	fmt.Fprintf(b, "\t%q\n", p)
}

// goRunStdout runs src with `go run` and returns its standard output.
func goRunStdout(t *testing.T, dir, src string) string {
	t.Helper()
	f := filepath.Join(dir, "main.go")
	if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "run", f)
	cmd.Dir = dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go run: %v\n%s\n%s", err, stderr.String(), src)
	}
	return string(out)
}

// runCells runs cells as one notebook through `gocl run` and returns each
// cell's stream output, or its error as "ERROR name: value".
func runCells(t *testing.T, dir string, cells []string) []string {
	t.Helper()
	var nbCells []map[string]any
	for _, c := range cells {
		nbCells = append(nbCells, map[string]any{"cell_type": "code", "metadata": map[string]any{}, "source": c,
			"outputs": []any{}, "execution_count": nil})
	}
	nb := map[string]any{"cells": nbCells, "nbformat": 4, "nbformat_minor": 5,
		"metadata": map[string]any{"kernelspec": map[string]any{"name": "gocl", "display_name": "Go (gocl)", "language": "go"}}}
	raw, _ := json.Marshal(nb)
	in, out := filepath.Join(dir, "std.ipynb"), filepath.Join(dir, "std.out.ipynb")
	if err := os.WriteFile(in, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	if status, _, stderr := goclRun(t, dir, in, "-o", out, "--allow-errors"); status != 0 {
		t.Fatalf("gocl run: exit %d: %s", status, stderr)
	}
	got := readJSON(t, out)
	var texts []string
	for _, c := range got["cells"].([]any) {
		var b strings.Builder
		for _, o := range c.(map[string]any)["outputs"].([]any) {
			o := o.(map[string]any)
			switch o["output_type"] {
			case "stream":
				b.WriteString(joinText(o["text"]))
			case "error":
				fmt.Fprintf(&b, "ERROR %s: %s\n", o["ename"], o["evalue"])
			}
		}
		texts = append(texts, b.String())
	}
	return texts
}

func joinText(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case []any:
		var b strings.Builder
		for _, s := range v {
			b.WriteString(s.(string))
		}
		return b.String()
	}
	return fmt.Sprint(v)
}

func TestNewStandardLibraryMatchesGoRun(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command to compare with")
	}
	dir := t.TempDir()
	var cells []string
	for _, c := range stdCases {
		cells = append(cells, c.cell())
	}
	got := runCells(t, dir, cells)
	if len(got) != len(stdCases) {
		t.Fatalf("%d cells came back, want %d", len(got), len(stdCases))
	}
	for i, c := range stdCases {
		sub := filepath.Join(dir, fmt.Sprint("case", i))
		if err := os.Mkdir(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		want := goRunStdout(t, sub, c.program())
		if got[i] != want {
			t.Errorf("%s:\n go run: %q\n  gocl: %q\ncell:\n%s", c.name, want, got[i], c.cell())
		}
	}
}

// limitCases are generic calls that yaegi v0.16.1 cannot compile or run
// (catalog.GenericLimits). Each must give Go's output or an error, never
// another value.
var limitCases = []stdCase{
	{"top-level := of a generic result", []string{"fmt", "slices"}, `
limNums := []int{3, 1}
limClone := slices.Clone(limNums)
fmt.Println(limClone)`},
	{"slice of a compiled type", []string{"fmt", "slices", "strings"}, `
limWords := strings.Fields("b c a")
slices.Sort(limWords)
fmt.Println(limWords)`},
	{"untyped float constants", []string{"cmp", "fmt"}, `
fmt.Println(cmp.Compare(1.5, 2.5))`},
	{"empty ... parameter", []string{"fmt", "slices"}, `
fmt.Println(slices.Insert([]int{1}, 0))`},
}

func TestGenericLimitsGiveErrorsNotValues(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command to compare with")
	}
	dir := t.TempDir()
	var cells []string
	for _, c := range limitCases {
		cells = append(cells, c.cell())
	}
	cells = append(cells, `fmt.Println("still serving")`)
	got := runCells(t, dir, cells)
	for i, c := range limitCases {
		sub := filepath.Join(dir, fmt.Sprint("limit", i))
		if err := os.Mkdir(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		want := goRunStdout(t, sub, c.program())
		if got[i] != want && !strings.HasPrefix(got[i], "ERROR ") {
			t.Errorf("%s: gocl printed %q, go run %q: a wrong value", c.name, got[i], want)
		}
	}
	if last := got[len(got)-1]; last != "still serving\n" {
		t.Errorf("after the limits, a cell gave %q", last)
	}
}

// TestEmbedIsRefusedWithAReason checks the import error a user sees.
func TestEmbedIsRefusedWithAReason(t *testing.T) {
	got := runCells(t, t.TempDir(), []string{"import \"embed\"", "import \"os/exec\"\nfmt.Println(exec.ErrDot != nil)"})
	if !strings.Contains(got[0], "ERROR ImportError") || !strings.Contains(got[0], "os.ReadFile") {
		t.Errorf("import embed gave %q, want an ImportError naming os.ReadFile", got[0])
	}
	if got[1] != "true\n" {
		t.Errorf("after the refused import, a cell gave %q", got[1])
	}
}

// TestPackagesSubcommand runs `gocl packages` and checks it lists a new
// package and gives the reason for a refused one.
func TestPackagesSubcommand(t *testing.T) {
	out, err := exec.Command(goclBin, "packages").CombinedOutput()
	if err != nil {
		t.Fatalf("gocl packages: %v\n%s", err, out)
	}
	for _, want := range []string{"\n  os/exec", "\n  iter", "\n  math/rand/v2", "\n  embed: //go:embed"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("gocl packages does not list %q:\n%s", want, out)
		}
	}
}
