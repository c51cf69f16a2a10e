package engine

import "testing"

// TestTaglessCaseList: yaegi tested only the first expression of the list.
func TestTaglessCaseList(t *testing.T) {
	e := newEngine(t)
	_, r := ok(t, e, "for _, y := range []int{1, 2, 3} {\n\tswitch {\n\tcase y == 1, y == 2:\n\t\tfmt.Print(\"a\")\n\tdefault:\n\t\tfmt.Print(\"d\")\n\t}\n}")
	if got := r.text("stdout"); got != "aad" {
		t.Errorf("printed %q, want %q (Go's)", got, "aad")
	}
}

// TestParallelAssignmentKeepsEveryTarget: yaegi dropped s when a string
// constant went with a call or a composite literal.
func TestParallelAssignmentKeepsEveryTarget(t *testing.T) {
	e := newEngine(t)
	_, r := ok(t, e, "func f() string {\n\tvar s string\n\tvar n int\n\tvar arr [2]int\n\ts, arr = \"x\", [2]int{1, 2}\n"+
		"\tout := s\n\tn, s = len(out), \"y\"\n\treturn fmt.Sprint(out, s, n, arr)\n}\nfmt.Println(f())")
	if got := r.text("stdout"); got != "xy1 [1 2]\n" {
		t.Errorf("printed %q, want %q (Go's)", got, "xy1 [1 2]\n")
	}
}
