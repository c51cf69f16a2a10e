package engine

import (
	"encoding/base64"
	"reflect"
	"strings"
	"testing"

	"github.com/traefik/yaegi/interp"
)

func TestResultRules(t *testing.T) {
	e := newEngine(t)
	ok(t, e, `func none() {}
func one() int { return 5 }
func two() (string, error) { return "a", nil }
func write() (int, error) { return 12, nil }
func bad() (int, error) { return 0, errors.New("disk full") }
type celsius float64
func (c celsius) String() string { return fmt.Sprintf("%.1f°C", float64(c)) }`)
	for _, c := range []struct{ code, want string }{
		{`1 + 2`, "3"},
		{`"quoted"`, `"quoted"`},
		{`[]string{"a", "b"}`, "[a b]"},
		{`map[string]int{"k": 1}`, "map[k:1]"},
		{`one()`, "5"},
		{`two()`, `"a" <nil>`},
		{`bad()`, "0 disk full"},
		{`celsius(21.5)`, "21.5°C"},
		{`errors.New("e")`, "e"},
		{`var nilErr error
nilErr`, "<nil>"},
		{`x := 3
x`, "3"},
		{`fmt.Println("printed")`, ""},
		{`fmt.Printf("%d\n", 12)`, ""},
		{`write()`, ""},
		{`none()`, ""},
		{`os.Stdout.WriteString("w\n")`, ""},
		{`y := 1`, ""},
		{`func later() {}`, ""},
	} {
		got, _ := ok(t, e, c.code)
		expect(t, c.code, got, c.want)
	}
}

type pngThing struct{}

func (pngThing) PNG() []byte    { return []byte{0x89, 'P', 'N', 'G'} }
func (pngThing) String() string { return "a png" }

func TestRichResults(t *testing.T) {
	e := newEngine(t, interp.Exports{"gocl.test/rich/rich": {"Thing": reflect.ValueOf(func() pngThing { return pngThing{} })}})
	res, _ := run(t, e, `type card struct{ title string }
func (c card) HTML() string { return "<h1>" + c.title + "</h1>" }
func (c card) Markdown() string { return "# " + c.title }
card{"hi"}`)
	if res.Err != nil {
		t.Fatal(tb(res.Err))
	}
	expect(t, "html", res.Data["text/html"].(string), "<h1>hi</h1>")
	expect(t, "markdown", res.Data["text/markdown"].(string), "# hi")
	expect(t, "plain", res.Data["text/plain"].(string), "{hi}")

	res, _ = run(t, e, `import "gocl.test/rich"
rich.Thing()`)
	if res.Err != nil {
		t.Fatal(tb(res.Err))
	}
	expect(t, "png", res.Data["image/png"].(string), base64.StdEncoding.EncodeToString([]byte{0x89, 'P', 'N', 'G'}))
	expect(t, "plain of compiled type", res.Data["text/plain"].(string), "a png")
}

type richErr struct{}

func (*richErr) Error() string {
	return "CL_OUT_OF_RESOURCES (-5) in EnqueueNDRange\nhint: the kernel asked for too many registers"
}
func (*richErr) ErrorName() string { return "OpenCLError" }

func TestErrors(t *testing.T) {
	e := newEngine(t, interp.Exports{"gocl.test/errs/errs": {"Fail": reflect.ValueOf(func() { panic(&richErr{}) })}})
	ok(t, e, `before := 1`)

	err := fails(t, e, "a := 1\nb := a +\nfmt.Println(}")
	expect(t, "syntax name", err.Name, "SyntaxError")
	want := "  line 3, column 13:\n    fmt.Println(}\n                ^"
	if !strings.Contains(tb(err), want) {
		t.Errorf("syntax traceback:\n%s\nwant it to contain:\n%s", tb(err), want)
	}

	err = fails(t, e, "n := 1\n\tm := n + undefinedThing")
	expect(t, "compile name", err.Name, "CompileError")
	if err.Value != "undefined: undefinedThing" || !strings.Contains(tb(err), "line 2, column 11:\n        m := n + undefinedThing\n                 ^") {
		t.Errorf("compile traceback:\n%s", tb(err))
	}

	err = fails(t, e, `var s string = 3`)
	expect(t, "type error name", err.Name, "CompileError")
	if !strings.Contains(tb(err), "line 1, column") {
		t.Errorf("type error traceback:\n%s", tb(err))
	}

	ok(t, e, "func boom(n int) int {\n\tif n > 2 {\n\t\tpanic(fmt.Sprintf(\"too big: %d\", n))\n\t}\n\treturn n\n}")
	err = fails(t, e, "kept := 42\nboom(1)\nboom(3)\nnotReached := 1")
	expect(t, "panic name", err.Name, "panic")
	expect(t, "panic value", err.Value, "too big: 3")
	text := tb(err)
	if !strings.Contains(text, "  line 3, column 1:\n    boom(3)\n    ^\n  inside boom (declared in earlier cell #") {
		t.Errorf("panic traceback:\n%s", text)
	}
	got, _ := ok(t, e, "kept + before")
	expect(t, "state kept before the panic", got, "43")
	if err := fails(t, e, "notReached"); err.Name != "CompileError" {
		t.Errorf("notReached should be undefined, got %s", tb(err))
	}

	err = fails(t, e, "var arr []int\n_ = arr[5]")
	expect(t, "runtime error name", err.Name, "panic")
	if !strings.Contains(err.Value, "index out of range") {
		t.Errorf("runtime error value %q", err.Value)
	}

	err = fails(t, e, "import \"gocl.test/errs\"\nerrs.Fail()")
	expect(t, "ErrorName", err.Name, "OpenCLError")
	expect(t, "first line", err.Value, "CL_OUT_OF_RESOURCES (-5) in EnqueueNDRange")
	if tbl := err.Traceback; tbl[len(tbl)-1] != "hint: the kernel asked for too many registers" ||
		!strings.Contains(tb(err), "line 2, column 1:") {
		t.Errorf("rich error traceback:\n%s", tb(err))
	}

	err = fails(t, e, `os.Exit(3)`)
	expect(t, "exit", err.Name, "Exit")
	got, _ = ok(t, e, `"still alive"`)
	expect(t, "after os.Exit", got, `"still alive"`)
}

func TestFuncValueAndScope(t *testing.T) {
	e := newEngine(t)
	got, _ := ok(t, e, "func sq(x int) int { return x * x }\nsq")
	expect(t, "func value", got, "func")
	ok(t, e, "n := 3\nconst c = 2\ntype pt struct{ X int }\nvar v = pt{sq(n)}")
	s := e.Scope()
	if s.Imports["fmt"] != "fmt" || s.Imports["display"] != "github.com/seed43a1e1ab/gocl/kernel/display" {
		t.Errorf("imports: %v", s.Imports)
	}
	for name, kind := range map[string]string{"sq": "func", "n": "var", "c": "const", "pt": "type", "v": "var"} {
		expect(t, name+" kind", s.Globals[name].Kind, kind)
	}
	expect(t, "sq decl", s.Globals["sq"].Decl, "func sq(x int) int")
	if v := s.Globals["n"].Value; !v.IsValid() || v.Interface() != 3 {
		t.Errorf("n value = %v", v)
	}
	for name := range s.Globals {
		if strings.HasPrefix(name, helperPrefix) {
			t.Errorf("helper %s leaked into Scope", name)
		}
	}
	b, err := e.Evaluate(t.Context(), "sq(n) + c")
	if err != nil || b["text/plain"] != "11" {
		t.Errorf("Evaluate = %v, %v", b, err)
	}
	if _, err := e.Evaluate(t.Context(), "nope("); err == nil || err.Name != "SyntaxError" {
		t.Errorf("Evaluate of bad expression: %v", err)
	}
}
