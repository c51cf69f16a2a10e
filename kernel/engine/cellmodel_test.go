package engine

import (
	"go/ast"
	"strings"
	"testing"
)

// TestCellParses checks how often a cell is parsed: once when it runs, and
// once more when yaegi refuses it, for both explanations of the refusal
// (the statement-vars note and triage) together; it was once each. A cell
// that neither explanation reads is not parsed again.
func TestCellParses(t *testing.T) {
	e := newEngine(t)
	parses := 0
	testHookParsed = func(string) { parses++ }
	defer func() { testHookParsed = nil }()

	ok(t, e, "x := 1\nfmt.Println(x)")
	if parses != 1 {
		t.Errorf("a cell that runs was parsed %d times, want 1", parses)
	}
	parses = 0
	err := fails(t, e, "func f() int { return q }\nq := 2\nfmt.Println(f())")
	if !strings.Contains(err.Value, "undefined: q") || !strings.Contains(err.Value, "declared by a statement of this cell") {
		t.Errorf("error %q: want yaegi's undefined with the statement-vars note", err.Value)
	}
	if parses != 2 {
		t.Errorf("a refused cell was parsed %d times, want 2", parses)
	}
	// The engine's own refusal needs neither explanation: no parse more.
	parses = 0
	err = fails(t, e, "a := 1\na := 2")
	if !strings.Contains(err.Value, "no new variables") {
		t.Errorf("error %q: want Go's no new variables", err.Value)
	}
	if parses != 1 {
		t.Errorf("a cell the engine refused was parsed %d times, want 1", parses)
	}
}

// TestCellPosUsesTheModel checks that the engine locates a node of the
// running cell through its model, and one of no cell's code not at all.
func TestCellPosUsesTheModel(t *testing.T) {
	e := newEngine(t)
	ok(t, e, "a := 1\nif a > 0 {\n\tfmt.Println(a)\n}")
	m := e.model.Load()
	if m == nil || len(m.Parts) != 1 {
		t.Fatalf("model %+v: want the last cell's, one part", m)
	}
	found := false
	ast.Inspect(m.Parts[0].Body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			found = true
			cell, line, col := e.cellPos(call.Pos())
			if cell != m.Name || line != 3 || col != 2 {
				t.Errorf("fmt.Println call at %s:%d:%d, want %s:3:2", cell, line, col, m.Name)
			}
		}
		return true
	})
	if !found {
		t.Fatalf("no call in the cell's syntax")
	}
}
