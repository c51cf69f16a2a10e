package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/seed43a1e1ab/gocl/kernel/cellio"
)

func TestLayoutKeepsLinesAndColumns(t *testing.T) {
	got := layout([]cellio.Declared{
		{Text: "const a = 1", Line: 2, Col: 1},
		{Text: "const b = 2", Line: 2, Col: 14},
		{Text: "func f() int {\n\treturn a\n}", Line: 4, Col: 1},
	})
	want := "\nconst a = 1; const b = 2\n\nfunc f() int {\n\treturn a\n}"
	if got != want {
		t.Errorf("layout:\n%q\nwant\n%q", got, want)
	}
}

func TestDeclaredNamesUsesAndLost(t *testing.T) {
	e := newEngine(t)
	ok(t, e, "import m \"math\"\nconst scale = 2\ntype P struct{ X int }\nfunc (p P) Twice() int { return p.X * scale }\nfunc init() {}\nfunc main() {}\nn := 3\nfunc F() float64 { return m.Sqrt(float64(n)) }")
	_, ds := e.TakeDeclared()
	var got []string
	for _, d := range ds {
		got = append(got, d.Kind+" "+strings.Join(d.Names, ",")+" uses "+strings.Join(d.Uses, ","))
	}
	want := []string{"import  uses ", "const scale uses ", "type P uses int", "method P.Twice uses P,int,scale",
		"main main uses ", "func F uses float64,m,n", "var n uses "}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("declared:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	fresh := newEngine(t)
	var again []cellio.Declared
	for _, d := range ds {
		if d.Kind != "var" && d.Kind != "main" && d.Kind != "func" {
			again = append(again, d)
		}
	}
	failed := fresh.Declare(context.Background(), again, map[string]string{"n": "lost in the crash of cell #1; run that cell again",
		"F": "it uses n, lost in the crash of cell #1; run that cell again"}, 5)
	if len(failed) != 0 {
		t.Fatalf("failed: %v", failed)
	}
	if got, _ := ok(t, fresh, "fmt.Sprint(P{3}.Twice(), m.Pi > 3)"); got != `"6 true"` {
		t.Errorf("declared again: %s", got)
	}
	if cell, _ := fresh.TakeDeclared(); cell != "cell5" {
		t.Errorf("the first cell after a replay told next 5 is %s, want cell5", cell)
	}
	if err := fails(t, fresh, "F()"); !strings.Contains(err.Value, "undefined: F (it uses n, lost in the crash of cell #1") {
		t.Errorf("a lost name used: %v", err)
	}
	// A method, a field or an import named like a lost name is no use.
	ok(t, fresh, "type Q struct{ F int }\nfunc (Q) F2() {}\nfunc (Q) n() int { return 1 }\nimport n2 \"math\"\n_ = Q{F: 1}.n() + int(n2.Sqrt(4))")
	if got, _ := ok(t, fresh, "n := 4\nn"); got != "4" {
		t.Errorf("a lost name declared again: %s", got)
	}
}
