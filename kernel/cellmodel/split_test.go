package cellmodel

import (
	"fmt"
	"strings"
	"testing"
)

// pieces renders a cell's chunks as "kind:text" lines.
func pieces(c *Cell) string {
	var b strings.Builder
	for _, ch := range c.Chunks {
		fmt.Fprintf(&b, "%s@%d:%d:%s\n", ch.Kind, ch.Line, ch.Col, c.Text[ch.Start:ch.End])
	}
	return b.String()
}

func TestSplit(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
	}{
		{"empty", "  \n\t", ""},
		{"kinds in order", "import \"fmt\"\nfunc f() int { return 1 }\nx := f()\nfmt.Println(x)",
			"import@1:1:import \"fmt\"\ndecl@2:1:func f() int { return 1 }\nstmt@3:1:x := f()\nfmt.Println(x)\n"},
		{"a func literal is a statement", "func() { println(1) }()",
			"stmt@1:1:func() { println(1) }()\n"},
		{"a method is a declaration", "type T int\nfunc (t T) M() {}\n",
			"decl@1:1:type T int\nfunc (t T) M() {}\n"},
		{"a var is a statement", "var a = 1\nconst c = 2",
			"stmt@1:1:var a = 1\ndecl@2:1:const c = 2\n"},
		{"columns after a semicolon", "a := 1; type T int",
			"stmt@1:1:a := 1\ndecl@1:9:type T int\n"},
		{"unbalanced brackets are one statement", "x := f(\nfunc g() {}",
			"stmt@1:1:x := f(\nfunc g() {}\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := Split(tc.src)
			if c.Program {
				t.Errorf("Program = true for a cell without a package clause")
			}
			if got := pieces(c); got != tc.want {
				t.Errorf("Split(%q):\n%s\nwant:\n%s", tc.src, got, tc.want)
			}
		})
	}
}

func TestSplitProgram(t *testing.T) {
	src := "package main\n\nvar n = m + 1\nvar m = 2\n\nfunc main() { println(n) }\n"
	c := Split(src)
	if !c.Program {
		t.Fatalf("Program = false for a cell with a package clause")
	}
	if len(c.Text) != len(src) || strings.Count(c.Text, "\n") != strings.Count(src, "\n") || strings.Contains(c.Text, "package") {
		t.Errorf("Text %q: want the package clause blanked, every other byte in place", c.Text)
	}
	// A program's vars are package-level: one declaration chunk.
	want := "decl@3:1:var n = m + 1\nvar m = 2\n\nfunc main() { println(n) }\n"
	if got := pieces(c); got != want {
		t.Errorf("Split:\n%s\nwant:\n%s", got, want)
	}
}

func TestLineColAndSourceLine(t *testing.T) {
	src := "ab\ncd\r\nef"
	for _, tc := range []struct{ off, line, col int }{{0, 1, 1}, {1, 1, 2}, {3, 2, 1}, {7, 3, 1}, {8, 3, 2}, {-5, 1, 1}, {99, 3, 3}} {
		if l, c := LineCol(src, tc.off); l != tc.line || c != tc.col {
			t.Errorf("LineCol(%d) = %d:%d, want %d:%d", tc.off, l, c, tc.line, tc.col)
		}
	}
	if got := SourceLine(src, 2); got != "cd" {
		t.Errorf("SourceLine(2) = %q, want %q", got, "cd")
	}
	if got := SourceLine(src, 4); got != "" {
		t.Errorf("SourceLine(4) = %q, want empty", got)
	}
}
