package engine

import (
	"strings"
	"testing"
)

// TestRangeOverFunctionsAndNamedInts checks the ranges that only their
// types tell apart, against what Go prints for the same code.
func TestRangeOverFunctionsAndNamedInts(t *testing.T) {
	e := newEngine(t)
	ok(t, e, "import (\n\t\"iter\"\n\t\"maps\"\n\t\"slices\"\n)\n"+
		"func Count(n int) iter.Seq[int] {\n\treturn func(yield func(int) bool) {\n\t\tfor i := 0; i < n; i++ {\n\t\t\tif !yield(i) {\n\t\t\t\treturn\n\t\t\t}\n\t\t}\n\t}\n}\n"+
		"type Size int")
	_, r := ok(t, e, "for i := range Count(10) {\n\tif i == 1 {\n\t\tcontinue\n\t}\n\tif i == 6 {\n\t\tbreak\n\t}\n"+
		"\tswitch {\n\tcase i == 3:\n\t\tfmt.Print(\"three \")\n\t\tbreak\n\t}\n\tfor j := 0; j < 3; j++ {\n\t\tif j == 1 {\n\t\t\tbreak\n\t\t}\n\t}\n\tfmt.Print(i, \" \")\n}\nfmt.Println()")
	expect(t, "break, continue, a nested switch and loop", r.text("stdout"), "0 2 three 3 4 5 \n")
	_, r = ok(t, e, "m := map[string]int{\"b\": 2, \"a\": 1}\nsum := 0\nfor k, v := range maps.All(m) {\n\tsum += v\n\t_ = k\n}\n"+
		"for _, k := range slices.Sorted(maps.Keys(m)) {\n\tfmt.Print(k)\n}\nfmt.Println(\"\", sum)")
	expect(t, "maps.All and a slice", r.text("stdout"), "ab 3\n")
	_, r = ok(t, e, "var s Size = 3\nfor i := range s {\n\tfmt.Printf(\"%T%v \", i, i)\n}\nfmt.Println()")
	expect(t, "a named integer", r.text("stdout"), "main.Size0 main.Size1 main.Size2 \n")
	// A return in the body is left to yaegi, which refuses it; the error
	// says the cell is valid Go.
	err := fails(t, e, "func first() int {\n\tfor i := range Count(3) {\n\t\treturn i\n\t}\n\treturn -1\n}")
	if err.Name != "CompileError" || !strings.Contains(err.Value, "valid Go") {
		t.Errorf("a return inside a range over a function: %s", tb(err))
	}
}

// TestTriageTellsInterpreterLimitsFromMistakes checks that a compile error
// on valid Go says the limit is the interpreter's, and that an error in
// the user's Go keeps its own words.
func TestTriageTellsInterpreterLimitsFromMistakes(t *testing.T) {
	e := newEngine(t)
	// (A top-level strs := Map(...) of a cell's own generic function was
	// refused here until the generic-defines pass; it now runs.)
	err := fails(t, e, "import (\n\t\"slices\"\n\t\"strings\"\n)\nws := slices.Collect(strings.SplitSeq(\"a b\", \" \"))\nfmt.Println(ws)")
	if err.Name != "CompileError" || !strings.Contains(err.Value, "valid Go") || !strings.Contains(err.Value, "generic") {
		t.Errorf("a generic call of a compiled iterator yaegi cannot run: %s", tb(err))
	}
	err = fails(t, e, "y := undefinedThing + 1")
	if strings.Contains(err.Value, "valid Go") || !strings.Contains(tb(err), "undefinedThing") {
		t.Errorf("an undefined name: %s", tb(err))
	}
}
