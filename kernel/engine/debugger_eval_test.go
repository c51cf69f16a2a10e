package engine

import (
	"strconv"
	"strings"
	"testing"
)

// TestDebuggerEvaluatesExpressionsAsGoDoes compares the debugger's evaluate
// with the cell that prints the same expression: the same value and type,
// or both an error (a compile error or a panic in the cell).
func TestDebuggerEvaluatesExpressionsAsGoDoes(t *testing.T) {
	e := newEngine(t)
	d := newDAP(t, e)
	d.ok("initialize", nil)
	d.ok("attach", nil)
	ok(t, e, "type P struct{ Name string; N int }\n"+
		"a, b := 40, 2\nf := 1.0\nvar g float32 = 0.1\nxs := []int{1, 2, 3}\nm := map[string]int{\"k\": 7}\n"+
		"p := &P{\"gpu\", 5}\nvar i8 int8 = 127\nvar u8 uint8\ns := \"héllo\"\nyes := true")
	for _, expr := range []string{
		"a + b", "a - b*3", "a / 3", "a % 7", "-a", "(a + b) * 2",
		"xs[1] * 2", "xs[len(xs)-1]", "len(xs) + cap(xs)", "m[\"k\"]", "m[\"missing\"]",
		"p.Name + \"!\"", "p.N * a", "s[1]", "len(s)",
		"i8 + 1", "-i8 - 2", "u8 - 1", "u8 * 3",
		"7 / 2", "7.0 / 2", "f / 3", "f * 0.1", "g * 3", "g / 7",
		"a > 40 && b < 3", "a == 40 || yes", "!yes", "s < \"hz\"", "s == \"héllo\"",
		// Errors in both: division by zero, out of range, mismatched
		// types, an overflowing constant, an unknown name.
		"a / 0", "xs[5]", "xs[-1]", "a + f", "u8 + 256", "nosuch + 1",
	} {
		_, want := run(t, e, "fmt.Printf(\"%v|%T\", "+expr+", "+expr+")")
		printed := want.text("stdout")
		rep := d.req("evaluate", map[string]any{"expression": expr, "context": "repl"})
		if printed == "" {
			if rep["success"] != false {
				t.Errorf("%s: Go refuses it, the debugger says %v", expr, rep["body"])
			}
			continue
		}
		if rep["success"] != true {
			t.Errorf("%s: Go prints %q, the debugger refuses: %v", expr, printed, rep["message"])
			continue
		}
		body := rep["body"].(map[string]any)
		value, typ, _ := strings.Cut(printed, "|")
		if typ == "string" {
			value = strconv.Quote(value)
		}
		if got := body["result"].(string) + "|" + body["type"].(string); got != value+"|"+typ {
			t.Errorf("%s: the debugger says %s, Go prints %s|%s", expr, got, value, typ)
		}
	}
	// Refused by the debugger: calls and shifts (not supported), and
	// i8 + 200, which Go refuses ("cannot use 200 (untyped int constant)
	// as int8 value in ... (overflows)"), as cells now do too.
	for _, expr := range []string{"fmt.Sprint(a)", "a << 2", "i8 + 200", "xs[1:]", "P{}"} {
		if rep := d.req("evaluate", map[string]any{"expression": expr}); rep["success"] != false || rep["message"] == "" {
			t.Errorf("%s: the debugger does not refuse it: %v", expr, rep)
		}
	}
}
