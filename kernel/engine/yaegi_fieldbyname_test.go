package engine

import (
	"strings"
	"testing"
)

// TestFieldByNameRefused checks that reflect's FieldByName with an
// unexported field of a cell's struct is refused before the cell prints
// anything, and that an exported one, and an unexported name no cell type
// declares, still run.
func TestFieldByNameRefused(t *testing.T) {
	e := newEngine(t)
	ok(t, e, "import \"reflect\"\ntype user struct {\n\tfirstName string\n\tAge int\n}")
	res, r := run(t, e, "u := user{firstName: \"John\"}\nfmt.Println(\"before\")\nfmt.Println(reflect.ValueOf(u).FieldByName(\"firstName\"))")
	if res.Err == nil || !strings.Contains(res.Err.Value, "reflect cannot find the unexported field firstName") {
		t.Errorf("FieldByName: %+v", res.Err)
	}
	if out := r.text("stdout"); out != "" {
		t.Errorf("the refused cell printed %q", out)
	}
	res, _ = run(t, e, "_, found := reflect.TypeOf(user{}).FieldByName(\"firstName\")\nfmt.Println(found)")
	if res.Err == nil || !strings.Contains(res.Err.Value, "reflect cannot find the unexported field firstName") {
		t.Errorf("Type.FieldByName: %+v", res.Err)
	}
	res, _ = run(t, e, "func show() {\n\ttype local struct{ secret int }\n\tfmt.Println(reflect.ValueOf(local{1}).FieldByName(\"secret\"))\n}\nshow()")
	if res.Err == nil || !strings.Contains(res.Err.Value, "reflect cannot find the unexported field secret") {
		t.Errorf("a function's local type: %+v", res.Err)
	}
	_, r = ok(t, e, "fmt.Println(reflect.ValueOf(user{Age: 3}).FieldByName(\"Age\"), reflect.ValueOf(user{}).FieldByName(\"other\").IsValid())")
	expect(t, "exported and unknown fields", r.text("stdout"), "3 false\n")
}
