package e2e

import (
	"strings"
	"testing"
)

// ifaceCells compare values of the cells' types held in interfaces: the
// sentinel error idiom (`err == ErrNotFound`, `switch err`), values of a
// named int with a method, an explicit conversion to an interface, and a
// function of the first cell that uses the cell's own variable.
var ifaceCells = []string{
	"import (\n\t\"errors\"\n\t\"io\"\n)\n" +
		"type MyErr struct{ msg string }\nfunc (e *MyErr) Error() string { return e.msg }\n" +
		"var ErrX = &MyErr{\"x\"}\nvar ErrY = &MyErr{\"x\"}\nfunc find() error { return ErrX }\n" +
		"type S int\nfunc (s S) String() string { return \"S\" }\n" +
		"type V struct{ n int }\nfunc (v V) Error() string { return \"v\" }",
	"err := find()\nvar e3 error = ErrX\n" +
		"fmt.Println(err == ErrX, e3 == ErrX, e3 == err, err == ErrY, err != ErrX, err == nil)\n" +
		"switch err {\ncase ErrY:\n\tfmt.Println(\"Y\")\ncase io.EOF, ErrX:\n\tfmt.Println(\"X\")\ndefault:\n\tfmt.Println(\"none\")\n}\n" +
		"var e1 error = V{1}\nvar e4 error = V{1}\nfmt.Println(e1 == e4, e1 == V{1}, e1 == V{2})",
	"var a any = S(1)\nvar b any = S(1)\n" +
		"fmt.Println(a == b, a == S(1), S(2) == a, a != S(2), a == any(1))\n" +
		"w := any(S(3))\nfmt.Printf(\"%T %v\\n\", w, w)\n_, isStringer := w.(fmt.Stringer)\nfmt.Println(isStringer)\n" +
		"var r error = io.EOF\nfmt.Println(r == io.EOF, r == ErrX, errors.Is(err, ErrX))\n" +
		"fmt.Println(errors.Unwrap(fmt.Errorf(\"w: %w\", ErrX)) == ErrX, errors.Unwrap(fmt.Errorf(\"w: %w\", ErrY)) == ErrX)",
}

// TestCellValuesCompareAsGo runs ifaceCells through the kernel and checks
// what they print against go run of the same program (the first cell at
// package level, the others as main's body).
func TestCellValuesCompareAsGo(t *testing.T) {
	prog := "package main\n\nimport \"fmt\"\n" + ifaceCells[0] + "\nfunc main() {\n" +
		strings.Join(ifaceCells[1:], "\n") + "\n}\n"
	want := goRun(t, prog)
	k := startKernel(t)
	var got strings.Builder
	for _, c := range ifaceCells {
		got.WriteString(cellOutput(t, k, c))
	}
	if got.String() != want {
		t.Errorf("cells printed\n%s\ngo run printed\n%s", got.String(), want)
	}
}
