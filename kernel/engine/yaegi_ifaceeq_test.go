package engine

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

func TestComparisonsOfCellValuesInInterfaces(t *testing.T) {
	e := newEngine(t)
	ok(t, e, "import (\"errors\"; \"io\")\ntype MyErr struct{ msg string }\nfunc (e *MyErr) Error() string { return e.msg }\n"+
		"var ErrX = &MyErr{\"x\"}\nvar ErrY = &MyErr{\"x\"}\nfunc find() error { return ErrX }\n"+
		"type S int\nfunc (s S) String() string { return \"S\" }")
	for _, c := range []struct{ code, want string }{
		// yaegi said false: the wrapper in err against the pointer.
		{"err := find()\nfmt.Println(err == ErrX, err != ErrX, err == ErrY, err == nil)", "true false false false"},
		// yaegi panicked: comparing two wrappers.
		{"var e1 error = ErrX\nfmt.Println(e1 == find())", "true"},
		{"switch find() {\ncase ErrY:\n\tfmt.Println(\"Y\")\ncase io.EOF, ErrX:\n\tfmt.Println(\"X\")\n}", "X"},
		// A named int's value: the static type of S(1) goes with it.
		{"var a any = S(1)\nfmt.Println(a == S(1), a == S(2), a == any(1))", "true false false"},
		// What errors.Unwrap gives back is the value %w wrapped.
		{"fmt.Println(errors.Unwrap(fmt.Errorf(\"w: %w\", ErrX)) == ErrX, errors.Unwrap(fmt.Errorf(\"w: %w\", ErrY)) == ErrX)", "true false"},
		// Compiled values compare as before.
		{"var r error = io.EOF\nfmt.Println(r == io.EOF, r == ErrX)", "true false"},
	} {
		_, r := ok(t, e, c.code)
		if got := strings.TrimSpace(r.text("stdout")); got != c.want {
			t.Errorf("%s\nprinted %q, want %q (Go's)", c.code, got, c.want)
		}
	}
}

func TestUncomparableCellValuesPanicInGoWords(t *testing.T) {
	e := newEngine(t)
	ok(t, e, "type U struct{ xs []int }\nfunc (u U) Error() string { return \"u\" }")
	_, r := ok(t, e, "var u1 error = U{}\nvar u2 error = U{}\n"+
		"defer func() { fmt.Println(recover()) }()\nfmt.Println(u1 == u2)")
	if got := r.text("stdout"); !strings.HasPrefix(got, "runtime error: comparing uncomparable type") {
		t.Errorf("printed %q, want Go's run-time error", got)
	}
}

func TestCompareTriggers(t *testing.T) {
	kinds := map[string]string{"T": cellStruct}
	for code, want := range map[string]bool{
		"x := a == b":               true,
		"if err != ErrX {}":         true,
		"switch err { case ErrX: }": true,
		"if err != nil {}":          false, // nil: yaegi is right
		"x := i == 0":               false, // a literal: no cell value
		"x := s == \"a\"":           false,
	} {
		p := &parsed{}
		p.body = parseBody(t, code)
		if got := hasIfaceCompare([]*parsed{p}, kinds); got != want {
			t.Errorf("hasIfaceCompare(%q) = %v, want %v", code, got, want)
		}
		if hasIfaceCompare([]*parsed{p}, nil) {
			t.Errorf("hasIfaceCompare(%q) with no cell types = true", code)
		}
	}
}

// parseBody parses statements as the body of a function.
func parseBody(t *testing.T, stmts string) *ast.BlockStmt {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "_.go", "package main\nfunc main() {\n"+stmts+"\n}", 0)
	if err != nil {
		t.Fatal(err)
	}
	return f.Decls[0].(*ast.FuncDecl).Body
}
