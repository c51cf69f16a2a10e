package symtypes

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// A program is type-checked twice, with the Importer and with the
// toolchain's export data, and must come out the same: no error where the
// toolchain has none, an error where it has one, and the same type and
// constant value for every expression.

// outcome is what comparing one program gave.
type outcome struct {
	skip   string   // why the program's types were not compared ("" when they were)
	diffs  []string // where the Importer's types differ from the toolchain's
	exprs  int      // expressions compared
	sameTS int      // of which types.TypeString is the same too
}

func checkProgram(fset *token.FileSet, name string, src []byte, orc types.Importer, im *Importer) outcome {
	f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
	if err != nil {
		return outcome{skip: "does not parse"}
	}
	for _, spec := range f.Imports {
		path, _ := strconv.Unquote(spec.Path.Value)
		_, inTable := im.tables[path]
		_, inSource := im.sources[path]
		if path != "unsafe" && !inTable && !inSource {
			return outcome{skip: "imports " + path + ", in no table"}
		}
	}
	want, wantErr := typeCheck(fset, f, orc)
	got, gotErr := typeCheck(fset, f, im)
	if wantErr != nil {
		if gotErr == nil {
			return outcome{skip: "the toolchain rejects it", diffs: []string{"accepted; the toolchain says " + wantErr.Error()}}
		}
		return outcome{skip: "the toolchain rejects it"}
	}
	var out outcome
	if gotErr != nil {
		out.diffs = append(out.diffs, "error: "+gotErr.Error())
		return out
	}
	qual := func(p *types.Package) string { return p.Path() }
	// go/types makes some expressions itself (the 1 of i++), anew in each
	// check: those are found by position and text.
	type place struct {
		pos  token.Pos
		text string
	}
	made := map[place]types.TypeAndValue{}
	for expr, tv := range got.Types {
		made[place{expr.Pos(), types.ExprString(expr)}] = tv
	}
	for expr, tv := range want.Types {
		out.exprs++
		gtv, ok := got.Types[expr]
		if !ok {
			gtv, ok = made[place{expr.Pos(), types.ExprString(expr)}]
		}
		if !ok {
			out.diffs = append(out.diffs, fmt.Sprintf("%s: %s has no type", fset.Position(expr.Pos()), types.ExprString(expr)))
			continue
		}
		if g, w := types.TypeString(gtv.Type, qual), types.TypeString(tv.Type, qual); g == w {
			out.sameTS++
		} else if os.Getenv("SYMTYPES_SHOW") != "" {
			fmt.Printf("SPELLING\t%s\t%s\n", g, w)
		}
		if (gtv.Value == nil) != (tv.Value == nil) || tv.Value != nil && gtv.Value.ExactString() != tv.Value.ExactString() {
			out.diffs = append(out.diffs, fmt.Sprintf("%s: %s has value %v, the toolchain says %v",
				fset.Position(expr.Pos()), types.ExprString(expr), gtv.Value, tv.Value))
		}
		if g, w := canon(gtv.Type), canon(tv.Type); g != w {
			out.diffs = append(out.diffs, fmt.Sprintf("%s: %s is %s, the toolchain says %s",
				fset.Position(expr.Pos()), types.ExprString(expr), g, w))
		}
	}
	sort.Strings(out.diffs)
	return out
}

// typeCheck checks f and returns its types, or the first error.
func typeCheck(fset *token.FileSet, f *ast.File, imp types.Importer) (*types.Info, error) {
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}}
	var first error
	conf := types.Config{Importer: imp, Error: func(err error) {
		if first == nil {
			first = err
		}
	}}
	conf.Check(f.Name.Name, fset, []*ast.File{f}, info)
	return info, first
}

// TestCorpusMatchesToolchain compares gocl's own conformance corpus
// (e2e/conformance/corpus/*/main.go, written from the spec).
func TestCorpusMatchesToolchain(t *testing.T) {
	files, err := filepath.Glob("../../e2e/conformance/corpus/*/main.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus programs found (%v)", err)
	}
	compareAll(t, files, knownCorpusDiffs)
}

// knownCorpusDiffs are the corpus programs whose types differ on purpose,
// by what cells have: the generic sources give yaegi's API (iterators are
// plain funcs, not iter.Seq; see kernel/symbols/stdlib/generic.go), and
// generic funcs of compiled packages are in no table.
var knownCorpusDiffs = map[string]string{
	"errors_astype":    "errors.AsType is generic: yaegi's extract leaves it out of the table, and no source has it",
	"generics_collect": "slices.Values, slices.Collect, slices.Sorted and maps.Keys take and give plain funcs, as in slices_maps",
	"range_func":       "iter.Pull takes a plain func in the iter source",
	"slices_maps":      "maps.Keys, maps.Values, slices.Sorted and slices.Collect take and give plain funcs",
}

// TestYaegiProgramsMatchToolchain compares yaegi's own _test programs, read
// from the module cache of the yaegi that go.mod requires.
func TestYaegiProgramsMatchToolchain(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: yaegi's programs take a few seconds")
	}
	cmd := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/traefik/yaegi")
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("yaegi not in the module cache (go list -m: %v): run go mod download", err)
	}
	files, err := filepath.Glob(filepath.Join(strings.TrimSpace(string(out)), "_test", "*.go"))
	if err != nil || len(files) < 500 {
		t.Fatalf("only %d of yaegi's _test programs found (%v)", len(files), err)
	}
	compareAll(t, files, knownProgramDiffs)
}

// compareAll compares each program and fails for a difference, unless known
// lists it (by file name) with the reason.
func compareAll(t *testing.T, files []string, known map[string]string) {
	orc := oracle(t)
	im := gocl()
	fset := token.NewFileSet()
	skips := map[string]int{}
	absent := map[string]bool{}
	var compared, matched, exprs, sameTS int
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		o := checkProgram(fset, file, src, orc, im)
		if o.skip != "" && len(o.diffs) > 0 {
			t.Errorf("%s: %s", filepath.Base(file), o.diffs[0])
		}
		if o.skip != "" {
			reason := o.skip
			if path, ok := strings.CutPrefix(reason, "imports "); ok {
				absent[strings.TrimSuffix(path, ", in no table")] = true
				reason = "imports a package in no table"
			}
			skips[reason]++
			continue
		}
		compared++
		exprs += o.exprs
		sameTS += o.sameTS
		base := filepath.Base(file)
		if base == "main.go" {
			base = filepath.Base(filepath.Dir(file))
		}
		_, isKnown := known[base]
		switch {
		case len(o.diffs) == 0 && isKnown:
			t.Errorf("%s: listed as known to differ, but it matches now: remove it", base)
		case len(o.diffs) == 0:
			matched++
		case !isKnown:
			if len(o.diffs) > 5 {
				o.diffs = append(o.diffs[:5], fmt.Sprintf("and %d more", len(o.diffs)-5))
			}
			t.Errorf("%s differs from the toolchain:\n\t%s", base, strings.Join(o.diffs, "\n\t"))
		}
	}
	t.Logf("%d programs: %d compared, %d match the toolchain (%d known to differ); skipped: %v",
		len(files), compared, matched, len(known), skips)
	if len(absent) > 0 {
		var paths []string
		for p := range absent {
			paths = append(paths, p)
		}
		sort.Strings(paths)
		t.Logf("packages in no table: %s", strings.Join(paths, " "))
	}
	t.Logf("%d expressions compared; types.TypeString is identical for %d (the rest differ only in "+
		"parameter names and aliases, which reflect does not keep)", exprs, sameTS)
}

// knownProgramDiffs are yaegi's programs whose types differ on purpose (none
// now; the reasons would be those of knownCorpusDiffs).
var knownProgramDiffs = map[string]string{}
