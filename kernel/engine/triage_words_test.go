package engine

import (
	"strings"
	"testing"
)

// TestMissingImportSaysSo: a package used without its import line made
// yaegi's compiler dereference nil ("the interpreter failed on this code")
// or speak of a "constant definition loop", depending on the cell's form.
// Go says "undefined: json"; gocl says that, at the name, with the import
// to add.
func TestMissingImportSaysSo(t *testing.T) {
	e := newEngine(t)
	for _, src := range []string{
		"b, _ := json.Marshal(1)\nfmt.Println(string(b))",
		"x := json.Valid([]byte(\"1\"))\nfmt.Println(x)",
		"type A struct{ C string }\nb5, _ := json.Marshal(A{C: \"Oslo\"})\nfmt.Println(string(b5))",
	} {
		err := fails(t, e, src)
		all := tb(err)
		if err.Name != "CompileError" || !strings.HasPrefix(err.Value, "undefined: json") ||
			!strings.Contains(err.Value, `import "encoding/json"`) || strings.Contains(all, yaegiFailed) ||
			strings.Contains(all, "definition loop") || !strings.Contains(all, "json.") {
			t.Errorf("%q:\n%s", src, all)
		}
	}
	// yaegi's own clear words get the hint too.
	if err := fails(t, e, "fmt.Println(strconv.Itoa(3))"); !strings.Contains(err.Value, `add import "strconv"`) {
		t.Errorf("strconv without its import: %s", tb(err))
	}
	// A name that is no package gets no hint, and a clear yaegi error stands.
	if err := fails(t, e, "y := undefinedThing + 1"); strings.Contains(err.Value, "import") {
		t.Errorf("an undefined name that is no package: %s", tb(err))
	}
	// With the import, the cell runs.
	if _, r := ok(t, e, "import \"encoding/json\"\nb, _ := json.Marshal(1)\nfmt.Println(string(b))"); r.text("stdout") != "1\n" {
		t.Errorf("with the import: %q", r.text("stdout"))
	}
}
