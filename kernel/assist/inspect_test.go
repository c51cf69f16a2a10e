package assist

import (
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// inspect runs Inspect with the cursor at the "|" in code and returns the
// text/plain part.
func inspect(t *testing.T, code string, detail int, sc Scope) (string, bool) {
	t.Helper()
	i := strings.Index(code, "|")
	code = code[:i] + code[i+1:]
	data, ok := shared.Inspect(code, utf8.RuneCountInString(code[:i]), detail, sc)
	if !ok {
		return "", false
	}
	plain, _ := data["text/plain"].(string)
	md, _ := data["text/markdown"].(string)
	if plain == "" || md == "" {
		t.Errorf("%q: empty text/plain or text/markdown: %v", code, data)
	}
	return plain, true
}

func wantText(t *testing.T, code, got string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("%q: inspection lacks %q:\n%s", code, w, got)
		}
	}
}

func TestInspectStdlib(t *testing.T) {
	sc := &fakeScope{imports: preImports}
	tests := []struct {
		code string
		want []string
	}{
		{"fmt.Print|ln(x)", []string{"func Println(a ...any) (n int, err error)", "standard output"}},
		{"fmt.Println|", []string{"func Println("}},
		{"fmt.Println(|", []string{"func Println("}},       // in the call's arguments
		{"fmt.Println(1, 2, |", []string{"func Println("}}, // further in
		{"é := 1; strings.Spl|it(s, \",\")", []string{"func Split(s, sep string) []string"}},
		{"time.Now().Form|at(time.RFC3339)", []string{"func (t Time) Format(layout string) string"}},
		{"d := time.Sec|ond", []string{"Second", "Duration"}},
		{"fm|t", []string{"package fmt", "formatted I/O"}},
		{"x := le|n(s)", []string{"func len(v Type) int"}},
		{"var e err|or", []string{"type error interface"}},
		{"display.Pub|lish(m)", []string{"func Publish(m Message)", "running request"}},
	}
	for _, tt := range tests {
		got, ok := inspect(t, tt.code, 0, sc)
		if !ok {
			t.Errorf("%q: not found", tt.code)
			continue
		}
		wantText(t, tt.code, got, tt.want...)
	}
	got, ok := inspect(t, "fm|t", 1, sc)
	if !ok {
		t.Fatal("fmt not found")
	}
	wantText(t, "fmt (detail 1)", got, "func Println", "type Stringer")
}

func TestInspectUser(t *testing.T) {
	sc := yaegiScope(t,
		"// Add returns the sum of a and b.\nfunc Add(a, b int) int { return a + b }",
		"// Point is a place on the plane.\ntype Point struct {\n\tX, Y int\n\tlabel string\n}",
		"// Norm is the squared length.\nfunc (p Point) Norm() int { return p.X*p.X + p.Y*p.Y }",
		`var origin = Point{X: 3, Y: 4, label: "o"}`,
		`n := 42`,
		`const limit = 10`,
	)
	tests := []struct {
		code   string
		detail int
		want   []string
	}{
		{"x := Ad|d(1, 2)", 0, []string{"func Add(a, b int) int", "Add returns the sum"}},
		{"Add(1, |", 0, []string{"func Add(a, b int) int"}},
		{"Add|", 1, []string{"return a + b"}}, // source at detail 1
		{"var q Poi|nt", 0, []string{"type Point struct", "place on the plane", "Norm() int"}},
		{"n|", 0, []string{"var n int", "42"}},
		{"lim|it", 0, []string{"const limit", "10"}},
		{"origin|", 0, []string{"var origin Point", "X:3"}},
		{"origin.X|", 0, []string{"field X int", "3"}},
		{"origin.lab|el", 0, []string{"field label string", "o"}},
		{"origin.No|rm()", 0, []string{"func (p Point) Norm() int", "squared length"}},
	}
	for _, tt := range tests {
		got, ok := inspect(t, tt.code, tt.detail, sc)
		if !ok {
			t.Errorf("%q: not found", tt.code)
			continue
		}
		wantText(t, tt.code, got, tt.want...)
	}
}

func TestInspectCompiledValue(t *testing.T) {
	sc := &fakeScope{globals: map[string]reflect.Value{
		"d": reflect.ValueOf(1500 * time.Millisecond),
	}, imports: preImports}
	got, ok := inspect(t, "d.Str|ing()", 0, sc)
	if !ok {
		t.Fatal("d.String not found")
	}
	wantText(t, "d.String", got, "func (d Duration) String() string", "72h3m0.5s")
	got, _ = inspect(t, "d|", 0, sc)
	wantText(t, "d", got, "time.Duration", "1.5s")
}

func TestInspectUnknown(t *testing.T) {
	sc := &fakeScope{imports: preImports}
	for _, code := range []string{"nosuch|thing", "fmt.NoSuch|Func", "x := 1 |+ 2", "|", `"fmt.Pri|ntln"`} {
		if got, ok := inspect(t, code, 0, sc); ok {
			t.Errorf("%q: found %q", code, got)
		}
	}
}

func TestInspectModulePackages(t *testing.T) {
	// cl is this module's clapi, imported under the name cl. Pick any
	// documented function from the embedded docs, so the test follows the
	// package as it grows.
	path := "github.com/seed43a1e1ab/gocl/clapi"
	p := docs(path)
	if p == nil {
		t.Skip("clapi docs not generated yet; run go generate ./kernel/assist")
	}
	sc := &fakeScope{imports: map[string]string{"cl": path}}
	var name string
	for n, e := range p.Names {
		if e.Kind == "func" && (name == "" || n < name) {
			name = n
		}
	}
	if name == "" {
		t.Skip("clapi documents no functions yet")
	}
	got, ok := inspect(t, "cl."+name+"|", 0, sc)
	if !ok {
		t.Fatalf("cl.%s not found", name)
	}
	wantText(t, "cl."+name, got, "func "+name)
	c, _ := complete(t, shared, "cl."+name[:1]+"|", sc)
	wantMatches(t, c, name)
}

func TestInspectLongValue(t *testing.T) {
	long := strings.Repeat("é", maxValueLen)
	sc := &fakeScope{globals: map[string]reflect.Value{"s": reflect.ValueOf(long)}}
	got, ok := inspect(t, "s|", 0, sc)
	if !ok {
		t.Fatal("s not found")
	}
	if !utf8.ValidString(got) || len(got) > maxValueLen+200 {
		t.Errorf("value not shortened to valid UTF-8: %d bytes", len(got))
	}
}

// yaegi stores an unexported field f of an interpreted struct as Xf;
// inspection must show the name the user wrote.
func TestInspectUnexportedFieldNames(t *testing.T) {
	sc := yaegiScope(t,
		"type Point struct {\n\tX, Y int\n\tlabel string\n}",
		`var origin = Point{X: 3, Y: 4, label: "o"}`,
		`anon := struct{ A int; b string; L []struct{ c int } }{A: 1, b: "x", L: []struct{ c int }{{7}}}`,
	)
	got, _ := inspect(t, "origin|", 0, sc)
	wantText(t, "origin", got, "label:o")
	got2, _ := inspect(t, "anon|", 0, sc)
	wantText(t, "anon", got2, "b string", "c int", "b:x", "L:[{c:7}]")
	for _, s := range []string{got, got2} {
		if strings.Contains(s, "Xlabel") || strings.Contains(s, "Xb") || strings.Contains(s, "Xc") {
			t.Errorf("yaegi's mangled field names leak into inspection:\n%s", s)
		}
	}
}
