package engine

import (
	"strings"
	"testing"
)

// TestImportedTwice checks that a cell importing one name twice gets Go's
// error, while a later cell may import it again.
func TestImportedTwice(t *testing.T) {
	e := newEngine(t)
	err := fails(t, e, "import (\n\t\"time\"\n\t\"time\"\n)\nvar t time.Time\nfmt.Println(t)")
	if !strings.Contains(err.Value, "time redeclared in this block") {
		t.Errorf("a package imported twice in a cell: %s: %s, want Go's \"time redeclared in this block\"", err.Name, err.Value)
	}
	err = fails(t, e, "import (\n\tx \"strings\"\n\tx \"strings\"\n)")
	if !strings.Contains(err.Value, "x redeclared in this block") {
		t.Errorf("a package imported twice as x: %s: %s", err.Name, err.Value)
	}
	ok(t, e, "import \"time\"")
	_, r := ok(t, e, "import \"time\"\nfmt.Println(time.Duration(0))")
	expect(t, "time imported again in a later cell", r.text("stdout"), "0s\n")
}
