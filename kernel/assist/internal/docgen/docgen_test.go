package docgen

import (
	"bytes"
	"go/build"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const sample = `// Package shapes draws shapes.
package shapes

// Unit is the base length.
const Unit = 1

// Colors.
const (
	Red = iota // Red is red.
	Green
)

// Square is a square.
type Square struct {
	// Side is the side length.
	Side  int
	color int
}

// Area returns the area.
func (s Square) Area() int { return s.Side * s.Side }

// New makes a square.
func New(side int) Square { return Square{Side: side} }

// Shape is anything with an area.
type Shape interface {
	// Area returns the area.
	Area() int
}

func hidden() {}
`

func TestFromDir(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "shapes.go"), []byte(sample), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "shapes_test.go"), []byte("package shapes\n\nfunc TestOnly() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := build.Default
	p, err := FromDir(&ctx, dir, "example.com/shapes")
	if err != nil {
		t.Fatal(err)
	}
	if p.Synopsis != "Package shapes draws shapes." {
		t.Errorf("synopsis %q", p.Synopsis)
	}
	want := map[string][2]string{ // name -> kind, decl substring
		"Unit":        {"const", "const Unit = 1"},
		"Red":         {"const", "Green"},
		"Square":      {"type", "Side int"},
		"Square.Area": {"method", "func (s Square) Area() int"},
		"Square.Side": {"field", "Side int"},
		"New":         {"func", "func New(side int) Square"},
		"Shape.Area":  {"method", "Area() int"},
	}
	for name, w := range want {
		e, ok := p.Names[name]
		if !ok {
			t.Errorf("%s missing", name)
			continue
		}
		if e.Kind != w[0] || !strings.Contains(p.Declaration(e), w[1]) {
			t.Errorf("%s: kind %q decl %q; want %q containing %q", name, e.Kind, p.Declaration(e), w[0], w[1])
		}
	}
	for _, name := range []string{"hidden", "Square.color", "TestOnly"} {
		if _, ok := p.Names[name]; ok {
			t.Errorf("%s should be left out", name)
		}
	}
	if e := p.Names["Red"]; !strings.HasPrefix(e.Doc, "Red is red.") || !strings.Contains(e.Doc, "Colors.") {
		t.Errorf("Red doc %q", e.Doc)
	}
	if e := p.Names["Square.Side"]; e.Doc != "Side is the side length." {
		t.Errorf("Square.Side doc %q", e.Doc)
	}

	var b bytes.Buffer
	if err := Write(&b, []*Package{p}); err != nil {
		t.Fatal(err)
	}
	back, err := Read(&b)
	if err != nil || len(back) != 1 || back[0].Names["New"] != p.Names["New"] {
		t.Errorf("round trip: %v %v", back, err)
	}
	if _, err := Read(strings.NewReader("not gzip")); err == nil {
		t.Error("Read accepted garbage")
	}
}

func TestStdPaths(t *testing.T) {
	got := StdPaths(map[string]map[string]any{
		"fmt/fmt": nil, "math/rand/v2/rand": nil, "github.com/x/y/y": nil, ".": nil,
	})
	want := "builtin fmt math/rand/v2"
	if strings.Join(got, " ") != want {
		t.Errorf("StdPaths = %v, want %s", got, want)
	}
}
