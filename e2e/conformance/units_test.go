package conformance

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestNotebookForm(t *testing.T) {
	src := "package main\n\nimport \"fmt\"\n\ntype T int\n\n// main says hi.\nfunc main() {\n\tx := T(1)\n\tif x > 0 {\n\t\tfmt.Println(\"hi\", x)\n\t}\n}\n\nfunc f() {}\n"
	got, ok := NotebookForm(src)
	want := []string{"import \"fmt\"\n\ntype T int\n\n\n\nfunc f() {}\n", "x := T(1)\nif x > 0 {\n\tfmt.Println(\"hi\", x)\n}\n"}
	if !ok || !reflect.DeepEqual(got, want) {
		t.Errorf("NotebookForm:\ngot  %q (%v)\nwant %q", got, ok, want)
	}
	// A name main declares where the package declares it too is main's own
	// in the notebook form, under another name.
	src = "package main\n\nvar a int = 1\n\ntype T struct{ a int }\n\nfunc f() { println(a) }\n\nfunc main() {\n\tprintln(a)\n\ta := a + 1\n\tt := T{a: a}\n\tfunc() { a++ }()\n\tprintln(a, t.a)\n\tf()\n}\n"
	got, ok = NotebookForm(src)
	want = []string{"var a int = 1\n\ntype T struct{ a int }\n\nfunc f() { println(a) }\n",
		"println(a)\na_main := a + 1\nt := T{a: a_main}\nfunc() { a_main++ }()\nprintln(a_main, t.a)\nf()\n"}
	if !ok || !reflect.DeepEqual(got, want) {
		t.Errorf("NotebookForm of a program whose main shadows a package name:\ngot  %q (%v)\nwant %q", got, ok, want)
	}
	// The lines of a raw string literal keep their tabs: they are the
	// string's text.
	src = "package main\n\nfunc main() {\n\ts := `a\n\tb\n\t\tc`\n\tprintln(s)\n}\n"
	got, ok = NotebookForm(src)
	if want := "s := `a\n\tb\n\t\tc`\nprintln(s)\n"; !ok || len(got) != 2 || got[1] != want {
		t.Errorf("NotebookForm of a raw string over lines:\ngot  %q (%v)\nwant %q", got, ok, want)
	}
	if _, ok := NotebookForm("package main\nfunc f() {}\n"); ok {
		t.Error("a program without func main has a notebook form")
	}
	if _, ok := NotebookForm("println(1)"); ok {
		t.Error("a source that does not parse has a notebook form")
	}
}

func TestClassify(t *testing.T) {
	for _, c := range []struct {
		name string
		w    Want
		o    Outcome
		want Class
	}{
		{"same output", Want{Stdout: "1\n"}, Outcome{Stdout: "1\n"}, Pass},
		{"other output", Want{Stdout: "1\n"}, Outcome{Stdout: "2\n"}, Wrong},
		{"refusal", Want{Stdout: "1\n"}, Outcome{Err: "CompileError: a type switch on fmt.Stringer is not supported in a cell"}, ClearError},
		{"import refused", Want{Stdout: "1\n"}, Outcome{Err: `ImportError: package "iter" is not available: cells can import ...`}, ClearError},
		{"false diagnostic", Want{Stdout: "1\n"}, Outcome{Err: "CompileError: undefined: clear"}, UnclearError},
		{"false syntax error", Want{Stdout: "1\n"}, Outcome{Err: "SyntaxError: expected statement, found 'package'"}, UnclearError},
		{"panic where Go runs", Want{Stdout: "1\n"}, Outcome{Stdout: "1\n", Err: "panic: boom", Runtime: true}, UnclearError},
		{"an import of yaegi refused", Want{Stdout: "1\n"}, Outcome{Err: `ImportError: package "github.com/traefik/yaegi/interp" is not available: cells can import ...`}, ClearError},
		{"yaegi's frames", Want{Stdout: "1\n"}, Outcome{Err: "panic: x\ngithub.com/traefik/yaegi/interp.(*node).run"}, UnclearError},
		{"reflect's words", Want{Stdout: "1\n"}, Outcome{Err: "CompileError: reflect: Call with too many input arguments"}, UnclearError},
		{"wrong output then error", Want{Stdout: "1\n2\n"}, Outcome{Stdout: "3\n", Err: "CompileError: not supported"}, Wrong},
		{"Go's panic", Want{Stdout: "a\n", Panic: "runtime error: integer divide by zero"},
			Outcome{Stdout: "a\n", Err: "panic: runtime error: integer divide by zero", Runtime: true}, Pass},
		{"no panic where Go panics", Want{Stdout: "a\n", Panic: "x"}, Outcome{Stdout: "a\n"}, Wrong},
		{"other panic", Want{Panic: "runtime error: index out of range [3] with length 0"},
			Outcome{Err: "panic: index out of range", Runtime: true}, UnclearError},
		{"declared error", Want{Error: "undefined: init"}, Outcome{Err: "CompileError: undefined: init"}, Pass},
		{"other error", Want{Error: "undefined: init"}, Outcome{Err: "SyntaxError: x"}, ClearError},
		{"no error", Want{Error: "undefined: init"}, Outcome{}, Wrong},
		{"hang", Want{Stdout: "1"}, Outcome{Hung: true, Stdout: "1"}, Hang},
		{"crash", Want{Stdout: "1"}, Outcome{Crashed: true}, Crash},
	} {
		if got := Classify(c.w, c.o); got != c.want {
			t.Errorf("%s: Classify = %s, want %s", c.name, got, c.want)
		}
	}
}

func TestYaegiPrograms(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"out.go":    "package main\n\nfunc main() { println(1) }\n\n// Output:\n// 1\n",
		"err.go":    "package main\n\nfunc main() { x }\n\n// Error:\n// _test/err.go:3:15: undefined: x\n",
		"gopath.go": "package main\n\nimport \"guthib.com/bar\"\n\nfunc main() { bar.F() }\n\n// GOPATH:testdata/g\n// Output:\n// f\n",
		"none.go":   "package main\n\nfunc main() {}\n",
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	progs, undeclared, err := YaegiPrograms(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(undeclared, []string{"none.go"}) || len(progs) != 3 {
		t.Fatalf("got %d programs and undeclared %v, want 3 and [none.go]", len(progs), undeclared)
	}
	byName := map[string]YaegiProgram{}
	for _, p := range progs {
		byName[p.Name] = p
	}
	if w := byName["out.go"].Want; w != (Want{Stdout: "1"}) {
		t.Errorf("out.go wants %+v", w)
	}
	if w := byName["err.go"].Want; w != (Want{Error: "undefined: x"}) {
		t.Errorf("err.go wants %+v, want the error without its position", w)
	}
	g := byName["gopath.go"]
	if g.GoPath != filepath.Join(dir, "testdata/g") || !g.ImportsNonStandard() || byName["out.go"].ImportsNonStandard() {
		t.Errorf("gopath.go: GoPath %q, non-standard imports %v", g.GoPath, g.ImportsNonStandard())
	}
}

func TestBaselineRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "baseline.json")
	b := &Baseline{Yaegi: map[string]YaegiClasses{"a.go": {Pass, ClearError, Wrong}},
		Corpus: map[string]CorpusClasses{"x": {Hang, Pass}}}
	if err := b.Write(path); err != nil {
		t.Fatal(err)
	}
	got, err := ReadBaseline(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Yaegi, b.Yaegi) || !reflect.DeepEqual(got.Corpus, b.Corpus) || got.Note != BaselineNote {
		t.Errorf("read back %+v, wrote %+v", got, b)
	}
	if !Wrong.Worse(UnclearError) || Hang.Worse(Wrong) || !ClearError.Worse(Pass) {
		t.Error("class order: want pass < clear-error < unclear-error < wrong = hang = crash")
	}
}
