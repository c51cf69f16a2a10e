package engine

import (
	"bytes"
	"go/printer"
	"go/token"
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestPassOrder checks the table against the passes' declared needs: a pass
// that needs another's output comes after it.
func TestPassOrder(t *testing.T) {
	if err := passOrderError(passes); err != nil {
		t.Fatal(err)
	}
}

// TestPassOrderCatchesASwap checks that the order test can fail: swapping a
// pass with one whose output it needs breaks the table.
func TestPassOrderCatchesASwap(t *testing.T) {
	for _, pair := range [][2]string{{"crossings", "insert-helpers"}, {"crossings", "type-switches"}} {
		table := append([]*pass(nil), passes...)
		i, j := passIndex(t, table, pair[0]), passIndex(t, table, pair[1])
		table[i], table[j] = table[j], table[i]
		err := passOrderError(table)
		if err == nil || !strings.Contains(err.Error(), pair[1]) {
			t.Errorf("%s swapped with %s: got %v, want an error naming %s", pair[0], pair[1], err, pair[1])
		}
	}
}

func passIndex(t *testing.T, table []*pass, name string) int {
	t.Helper()
	for i, p := range table {
		if p.name == name {
			return i
		}
	}
	t.Fatalf("no pass %q in the table", name)
	return -1
}

// TestPassesDeclareThemselves checks that every pass says what the README's
// table shows, and that a pass that reads types runs on users' cells only
// (the engine's own cell is never type-checked) and says when it is needed
// (a type check for every cell would be the cost the table avoids).
func TestPassesDeclareThemselves(t *testing.T) {
	for _, p := range passes {
		if p.name == "" || p.bug == "" || p.changes == "" || p.file == "" {
			t.Errorf("pass %+v: name, bug, changes and file must be set", p.name)
		}
		if _, err := os.Stat(p.file); err != nil {
			t.Errorf("pass %s: its file: %v", p.name, err)
		}
		if p.reads&needTypes != 0 && (!p.userOnly || p.needed == nil) {
			t.Errorf("pass %s reads types: it must be userOnly and say when it is needed", p.name)
		}
		if p.chunk != nil && p.needed != nil {
			t.Errorf("pass %s: a chunk pass runs on every chunk; needed is for whole-cell passes", p.name)
		}
	}
}

// rewritten runs the pass called pass alone on code, as the cell of a
// session e, and returns the cell's chunks as rewritten, printed and
// with runs of white space made one space; or the pass's error.
func rewritten(t *testing.T, e *Engine, names, code string) (string, *CellError) {
	t.Helper()
	var run []*pass
	for _, name := range strings.Split(names, ",") {
		run = append(run, passes[passIndex(t, passes, name)])
	}
	ps, _, err := e.parseCell("test", code)
	if err != nil {
		t.Fatalf("%q: %v", code, err)
	}
	c := e.newCellRun("test", ps)
	if err := c.runPasses(run); err != nil {
		return "", err
	}
	var b bytes.Buffer
	for _, p := range c.ps {
		if p.body != nil {
			printer.Fprint(&b, token.NewFileSet(), p.body.List)
		} else if p.file != nil {
			for _, d := range p.file.Decls {
				printer.Fprint(&b, token.NewFileSet(), d)
				b.WriteString("\n")
			}
		}
		b.WriteString("\n")
	}
	out := strings.Join(strings.Fields(b.String()), " ")
	return goclName.ReplaceAllStringFunc(out, func(s string) string { return digits.ReplaceAllString(s, "N") }), nil
}

// goclName and digits number-blind the engine's own names, which count
// across a process: __gocl_sel12 prints as __gocl_selN.
var goclName, digits = regexp.MustCompile(`__gocl_\w+`), regexp.MustCompile(`[0-9]+`)

// passCase is a pass's input source and its output: the rewritten
// source, or (for a refusal) "refused: " and the start of its error's
// message.
type passCase struct {
	pass, session, in, out string
}

// TestPassRewrites checks each pass's output source for an input source,
// the pass alone on a cell (and on the session's earlier cells, run as
// cells first).
func TestPassRewrites(t *testing.T) {
	for _, tc := range passCases {
		t.Run(tc.pass, func(t *testing.T) {
			e := newEngine(t)
			if tc.session != "" {
				ok(t, e, tc.session)
			}
			if tc.pass == "dropped-names" {
				run(t, e, "panic(1)\ny := 2") // fails before y is declared
			}
			got, err := rewritten(t, e, tc.pass, tc.in)
			if err != nil {
				got = "refused: " + err.Value
			}
			if !strings.HasPrefix(got, tc.out) || !strings.HasPrefix(tc.out, "refused: ") && got != tc.out {
				t.Errorf("%s of\n%s\ngot  %s\nwant %s", tc.pass, tc.in, got, tc.out)
			}
		})
	}
}

// TestEveryPassHasARewriteCase checks that each pass of the table has a
// case of input and output source in passCases.
func TestEveryPassHasARewriteCase(t *testing.T) {
	has := map[string]bool{}
	for _, tc := range passCases {
		for _, name := range strings.Split(tc.pass, ",") {
			has[name] = true
		}
	}
	for _, p := range passes {
		if !has[p.name] {
			t.Errorf("pass %s has no case in passCases", p.name)
		}
	}
}
