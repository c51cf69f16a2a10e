package compiled

import (
	"strings"
	"testing"
)

func TestIsCompiled(t *testing.T) {
	for code, want := range map[string]bool{
		"//gocl:compile\nfunc F() {}": true,
		"\n  //gocl:compile\n":        true,
		"// gocl:compile\n":           false,
		"x := 1\n//gocl:compile\n":    false,
		"//gocl:compiled\n":           false,
	} {
		if got := IsCompiled(code); got != want {
			t.Errorf("IsCompiled(%q) = %v, want %v", code, got, want)
		}
	}
}

func TestParseCellDeclsAndFreeNames(t *testing.T) {
	src := "//gocl:compile\ntype Number interface{ ~int | ~float64 }\ntype Real interface{ Number }\n" +
		"func SumOf[T Number](xs []T) T { var s T; for _, x := range xs { s += x }; return s }\n" +
		"var A, _ = 1, 2\nconst C = 3\nfunc (p P) M() {}\ntype P struct{ X int }\n" +
		"func F() { fmt.Println(Earlier(A), p.X) }\n"
	cs, err := parseCell("cell1", src)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range cs.decls {
		g := ""
		if d.Generic {
			g = "*"
		}
		got = append(got, d.Kind+" "+d.Name+g)
	}
	want := "type Number*, type Real*, func SumOf*, var A, const C, type P, func F"
	if s := strings.Join(got, ", "); s != want {
		t.Errorf("decls = %s, want %s", s, want)
	}
	for _, n := range []string{"fmt", "Earlier", "p"} {
		if !cs.free[n] {
			t.Errorf("free names %v lack %s", cs.free, n)
		}
	}
	if cs.free["A"] || cs.free["X"] || cs.free["SumOf"] {
		t.Errorf("free names %v include a name the cell declares", cs.free)
	}
	// Uses and texts are located in the cell, not in the parsed file
	// with its package clause.
	if len(cs.uses) == 0 {
		t.Errorf("no uses of the free names")
	}
	for _, u := range cs.uses {
		if u.off < 0 || u.off+len(u.name) > len(src) || src[u.off:u.off+len(u.name)] != u.name {
			t.Errorf("use of %s at offset %d: the cell has %q there", u.name, u.off, src[max(u.off, 0):min(max(u.off, 0)+len(u.name), len(src))])
		}
	}
	for _, d := range cs.decls {
		if d.Name == "P" && (d.Spec != "P struct{ X int }" || d.Text != "type P struct{ X int }") {
			t.Errorf("type P: spec %q, text %q", d.Spec, d.Text)
		}
	}
}

func TestSyntaxErrorPosition(t *testing.T) {
	_, err := parseCell("cell4", "//gocl:compile\nfunc F() {\n\treturn 1 +\n}\n")
	ce, ok := err.(*CompileError)
	if !ok || len(ce.Diags) == 0 {
		t.Fatalf("want a *CompileError, got %v", err)
	}
	if d := ce.Diags[0]; d.Cell != "cell4" || d.Line != 4 {
		t.Errorf("syntax error at %s:%d:%d (%s), want cell4 line 4", d.Cell, d.Line, d.Col, d.Msg)
	}
}

func TestOrigColumn(t *testing.T) {
	src := "a\nx := Foo(Bar) + y\n"
	// "x := gocl_c1.Foo(gocl_c1.Bar) + y": Foo at 6, Bar at 10 in the cell.
	ins := []insert{{off: 2 + 5, n: 8}, {off: 2 + 9, n: 8}}
	for _, c := range []struct{ rewritten, want int }{{1, 1}, {6, 6}, {14, 6}, {26, 10}, {33, 17}} {
		if got := origColumn(src, ins, 2, c.rewritten); got != c.want {
			t.Errorf("origColumn(line 2, col %d) = %d, want %d", c.rewritten, got, c.want)
		}
	}
	if got := origColumn(src, ins, 1, 1); got != 1 {
		t.Errorf("line 1 moved: %d", got)
	}
}
