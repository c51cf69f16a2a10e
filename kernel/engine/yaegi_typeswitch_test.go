package engine

import (
	"strings"
	"testing"
)

// TestTypeSwitchCellStructs checks the cases that name a cell's struct type
// or a pointer to one, for values yaegi holds bare: in a []any literal, an
// any variable, an error variable (yaegi's wrapper), and through a cell's
// interface, where two struct types alike in shape must stay apart.
func TestTypeSwitchCellStructs(t *testing.T) {
	e := newEngine(t)
	ok(t, e, "import \"io\"\ntype NF struct{ K string }\nfunc (n *NF) Error() string { return \"nf \" + n.K }\ntype P struct{ X, Y int }\n"+
		"type E1 struct{}\ntype E2 struct{}\nfunc (E1) Hi() string { return \"1\" }\nfunc (E2) Hi() string { return \"2\" }\ntype Hi interface{ Hi() string }\n"+
		"func kind(v any) string {\n\tswitch x := v.(type) {\n\tcase *NF:\n\t\treturn \"NF \" + x.K\n\tcase P:\n\t\treturn fmt.Sprint(\"P \", x.X+x.Y)\n"+
		"\tcase error:\n\t\treturn \"error\"\n\tcase int:\n\t\treturn \"int\"\n\t}\n\treturn \"other\"\n}\n"+
		"func which(h Hi) string {\n\tswitch h.(type) {\n\tcase E1:\n\t\treturn \"E1\"\n\t}\n\treturn \"not E1\"\n}")
	_, r := ok(t, e, "for _, v := range []any{&NF{\"a\"}, P{1, 2}, io.EOF, 3, &P{}} { fmt.Println(kind(v)) }")
	expect(t, "a []any literal", r.text("stdout"), "NF a\nP 3\nerror\nint\nother\n")
	_, r = ok(t, e, "var a any = P{3, 4}\nvar err error = &NF{\"b\"}\nfmt.Println(kind(a), kind(err))\nnf, isNF := err.(*NF)\n_, isP := a.(*P)\nfmt.Println(nf.K, isNF, isP)")
	expect(t, "variables", r.text("stdout"), "P 7 NF b\nb true false\n")
	_, r = ok(t, e, "fmt.Println(which(E1{}), which(E2{}))")
	expect(t, "same-shape structs", r.text("stdout"), "E1 not E1\n")
}

// TestTypeSwitchOnNonStructCellTypeIsRefused checks the compile error for a
// case on a cell's named type that yaegi cannot tell from its underlying
// type, and that an assertion to one stays allowed.
func TestTypeSwitchOnNonStructCellTypeIsRefused(t *testing.T) {
	e := newEngine(t)
	ok(t, e, "type Celsius float64")
	err := fails(t, e, "var v any = Celsius(3)\nswitch v.(type) {\ncase Celsius:\n\tfmt.Println(\"C\")\ncase float64:\n\tfmt.Println(\"f\")\n}")
	if err.Name != "CompileError" || !strings.Contains(err.Value, "type switch case on Celsius") || !strings.Contains(err.Value, "struct") {
		t.Errorf("a switch on Celsius: %s", tb(err))
	}
	_, r := ok(t, e, "var w any = Celsius(2)\nc, isC := w.(Celsius)\nfmt.Println(c, isC)")
	expect(t, "an assertion to Celsius", r.text("stdout"), "2 true\n")
}

// TestInterfaceCasesMatchCellValues checks interface cases of a type
// switch on values of the cells' own types, which yaegi holds bare in a
// []any literal: the case matches by the type's method set, and the bound
// variable has the interface's methods.
func TestInterfaceCasesMatchCellValues(t *testing.T) {
	e := newEngine(t)
	ok(t, e, "type empty struct{}\nfunc (empty) Error() string { return \"empty error\" }\n"+
		"type coded struct{ code int }\nfunc (c coded) Error() string { return fmt.Sprint(\"code \", c.code) }\n"+
		"type named struct{ n string }\nfunc (n named) String() string { return \"named \" + n.n }\n"+
		"func kind(v any) string {\n\tswitch x := v.(type) {\n\tcase error:\n\t\treturn \"error: \" + x.Error()\n"+
		"\tcase fmt.Stringer:\n\t\treturn \"stringer: \" + x.String()\n\t}\n\treturn fmt.Sprintf(\"other %T\", v)\n}")
	_, r := ok(t, e, "for _, v := range []any{empty{}, coded{7}, named{\"n\"}, 3} {\n\tfmt.Println(kind(v))\n}")
	expect(t, "kinds", r.text("stdout"), "error: empty error\nerror: code 7\nstringer: named n\nother int\n")
}

// TestInterfaceCaseInALaterCell checks the match when the type, the
// function with the switch and the call are each in a cell of their own.
func TestInterfaceCaseInALaterCell(t *testing.T) {
	e := newEngine(t)
	ok(t, e, "type coded struct{ code int }\nfunc (c coded) Error() string { return fmt.Sprint(\"code \", c.code) }")
	ok(t, e, "func kind(v any) string {\n\tswitch x := v.(type) {\n\tcase error:\n\t\treturn \"error: \" + x.Error()\n\t}\n\treturn \"other\"\n}")
	_, r := ok(t, e, "xs := []any{coded{2}, 1}\nfmt.Println(kind(xs[0]), kind(xs[1]))")
	expect(t, "kinds", r.text("stdout"), "error: code 2 other\n")
}
