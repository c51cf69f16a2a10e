package engine

import (
	"strings"
	"testing"
)

func TestMixedDeclarationsAndStatements(t *testing.T) {
	e := newEngine(t)
	got, r := ok(t, e, `
x := 20
func double(n int) int { return 2 * n }
type pair struct{ a, b int }
const k = 2
var p = pair{1, k}
y := double(x) + p.b
fmt.Println("y is", y)
import "strings"
strings.Repeat("ab", k)
`)
	expect(t, "result", got, `"abab"`)
	expect(t, "stdout", r.text("stdout"), "y is 42\n")
	got, _ = ok(t, e, "double(y)")
	expect(t, "later cell", got, "84")
}

func TestRedefinition(t *testing.T) {
	e := newEngine(t)
	ok(t, e, "var v = 1\nfunc f() int { return 1 }\ntype T struct{ A int }")
	got, _ := ok(t, e, `var v = "now a string"`+"\nv")
	expect(t, "var redefined", got, `"now a string"`)
	ok(t, e, "w := 1")
	got, _ = ok(t, e, "w := \"short\"\nw")
	expect(t, "short var redefined", got, `"short"`)
	got, _ = ok(t, e, "func f() string { return \"two\" }\nf()")
	expect(t, "func redefined", got, `"two"`)
	// Re-running the same type declaration is harmless.
	got, _ = ok(t, e, "type T struct{ A int }\nT{A: 3}")
	expect(t, "same type again", got, "{3}")
	// Changing it is refused plainly, at the declaration, and runs nothing.
	err := fails(t, e, "v = \"changed\"\ntype T struct{ B string }")
	expect(t, "name", err.Name, "CompileError")
	if !strings.Contains(err.Value, "type T was declared in an earlier cell") || !strings.Contains(tb(err), "line 2, column 6") {
		t.Errorf("unclear type redefinition error:\n%s", tb(err))
	}
	got, _ = ok(t, e, "v")
	expect(t, "cell with refused type ran nothing", got, `"now a string"`)
}

func TestImports(t *testing.T) {
	e := newEngine(t)
	got, _ := ok(t, e, `import "fmt"
import "strings"
fmt.Sprint(strings.ToUpper("a"), math.Sqrt(4), sort.IntsAreSorted([]int{1}))`)
	expect(t, "imports", got, `"A2 true"`)
	got, _ = ok(t, e, "import \"strings\"\nimport (\n\t\"fmt\"\n\tb64 \"encoding/base64\"\n)\nb64.StdEncoding.EncodeToString([]byte(fmt.Sprint(1)))")
	expect(t, "import re-run", got, `"MQ=="`)
	err := fails(t, e, `import "crypto/rand"`+"\n"+`import "math/rand"`)
	expect(t, "name clash", err.Name, "ImportError")
	if !strings.Contains(err.Value, `rand is already imported as "crypto/rand"`) || !strings.Contains(tb(err), "line 2, column 8") {
		t.Errorf("unclear clash error:\n%s", tb(err))
	}
	err = fails(t, e, `import "example.com/nope"`)
	expect(t, "unknown package", err.Name, "ImportError")
	if !strings.Contains(err.Value, `"example.com/nope" is not available`) {
		t.Errorf("unclear unknown-package error:\n%s", tb(err))
	}
	// display is pre-imported through Options.
	_, r := ok(t, e, `display.HTML("<b>hi</b>")`)
	if len(r.events) != 1 || r.events[0].kind != "display" || r.events[0].msg.Data["text/html"] != "<b>hi</b>" {
		t.Errorf("display.HTML did not reach the sink: %+v", r.events)
	}
}
