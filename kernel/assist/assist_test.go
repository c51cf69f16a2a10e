package assist

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// fakeScope is a Scope made of plain maps.
type fakeScope struct {
	globals map[string]reflect.Value
	imports map[string]string
	sources []string
}

func (f *fakeScope) Globals() map[string]reflect.Value { return f.globals }
func (f *fakeScope) Imports() map[string]string        { return f.imports }
func (f *fakeScope) Sources() []string                 { return f.sources }

// preImports are the packages the kernel imports into every cell.
var preImports = map[string]string{
	"fmt": "fmt", "os": "os", "time": "time", "math": "math", "strings": "strings", "sort": "sort",
	"errors": "errors", "sync": "sync", "display": "github.com/seed43a1e1ab/gocl/kernel/display",
}

// yaegiScope runs cells in a real interpreter and returns a Scope made of its
// globals, so tests see the values yaegi really produces.
func yaegiScope(t *testing.T, cells ...string) *fakeScope {
	t.Helper()
	i := interp.New(interp.Options{})
	if err := i.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	for _, c := range cells {
		if _, err := i.Eval(c); err != nil {
			t.Fatalf("cell %q: %v", c, err)
		}
	}
	return &fakeScope{globals: i.Globals(), imports: preImports, sources: cells}
}

// complete runs Complete with the cursor at the "|" in code.
func complete(t *testing.T, a *Assistant, code string, sc Scope) (Completion, string) {
	t.Helper()
	i := strings.Index(code, "|")
	if i < 0 {
		t.Fatalf("no | cursor in %q", code)
	}
	code = code[:i] + code[i+1:]
	return a.Complete(code, utf8.RuneCountInString(code[:i]), sc), code
}

func wantMatches(t *testing.T, c Completion, want ...string) {
	t.Helper()
	for _, w := range want {
		if !slices.Contains(c.Matches, w) {
			t.Errorf("matches %v lack %q", head(c.Matches), w)
		}
	}
}

func head(m []string) []string {
	if len(m) > 30 {
		return m[:30]
	}
	return m
}

var shared = New()
