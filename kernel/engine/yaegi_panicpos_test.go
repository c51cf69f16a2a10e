package engine

import (
	"strings"
	"testing"
)

// TestPanicInPastedMainPointsAtItsLine checks that a panic in a pasted
// program's func main points at the line of main that panicked, or that
// called the function that did, not at `func main() {` (issue 24), in
// Go's words, and that the notebook form's top-level statements still
// point at theirs.
func TestPanicInPastedMainPointsAtItsLine(t *testing.T) {
	e := newEngine(t)
	prog := "package main\n\nimport \"fmt\"\n\nfunc f(s []int) int { return s[3] }\n\nfunc main() {\n" +
		"\tfmt.Println(\"start\")\n\tvar m map[string]int\n\tif len(m) == 0 {\n\t\tfmt.Println(\"empty\")\n\t}\n%s\n}\n"
	for _, c := range []struct{ body, value, line string }{
		{"\tm[\"a\"] = 1", "assignment to entry in nil map", "line 13, column 2:"},
		{"\tvar p *struct{ x int }\n\tfmt.Println(p.x)", "invalid memory address or nil pointer dereference", "line 14, column 14:"},
		{"\tfor i := 0; i < 3; i++ {\n\t\tif i == 2 {\n\t\t\tpanic(\"boom\")\n\t\t}\n\t}", "boom", "line 15, column 4:"},
		{"\tfmt.Println(f(nil))", "index out of range", "line 13, column 14:"},
	} {
		err := fails(t, e, strings.Replace(prog, "%s", c.body, 1))
		got := tb(err)
		if !strings.Contains(err.Value, c.value) || len(err.Traceback) < 2 || err.Traceback[1] != "  "+c.line {
			t.Errorf("%s: got\n%s\nwant %q at %q", c.body, got, c.value, c.line)
		}
		if strings.Contains(got, "func main") {
			t.Errorf("%s: points at func main:\n%s", c.body, got)
		}
	}
	err := fails(t, e, "var m2 map[string]int\nfmt.Println(len(m2))\nm2[\"a\"] = 1")
	if len(err.Traceback) < 2 || err.Traceback[1] != "  line 3, column 1:" {
		t.Errorf("top-level statement: got\n%s", tb(err))
	}
}
