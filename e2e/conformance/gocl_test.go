package conformance

import (
	"strings"
	"testing"
	"time"
)

// The runner through the real binary: output, errors, a hang and a crash
// come back as the Outcome the classes are computed from.
func TestGoclRun(t *testing.T) {
	skipShort(t)
	g := Gocl{Bin: goclBin, Limit: 4 * time.Second, Dir: t.TempDir()}
	o := g.Run("ok", []string{"x := 2\nfmt.Println(x * 21)\n", "fmt.Fprint(os.Stderr, \"err \")\nfmt.Print(\"second\\n\")\n"})
	if o != (Outcome{Stdout: "42\nsecond\n", Output: "42\nerr second\n"}) {
		t.Errorf("two cells: %+v", o)
	}
	o = g.Run("fails", []string{"fmt.Println(\"before\")\nvar m map[string]int\nm[\"a\"] = 1\n", "fmt.Println(\"not run\")\n"})
	if o.Stdout != "before\n" || !o.Runtime || !strings.Contains(o.Err, "assignment to entry in nil map") {
		t.Errorf("a failing cell stops the run with its panic: %+v", o)
	}
	o = g.Run("compile", []string{"undefinedName + 1\n"})
	if o.Runtime || !strings.Contains(o.Err, "undefinedName") {
		t.Errorf("a compile error: %+v", o)
	}
	began := time.Now()
	if o = g.Run("hang", []string{"for {}\n"}); !o.Hung {
		t.Errorf("for {}: %+v, want hung", o)
	}
	if took := time.Since(began); took > 2*g.Limit {
		t.Errorf("a hang took %v to report, limit %v", took, g.Limit)
	}
	bad := Gocl{Bin: "/bin/false", Limit: time.Second, Dir: t.TempDir()}
	if o = bad.Run("crash", []string{"1\n"}); !o.Crashed {
		t.Errorf("a binary that writes no notebook: %+v, want crashed", o)
	}
}
