package assist

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCompletePackageMembers(t *testing.T) {
	sc := &fakeScope{imports: preImports}
	tests := []struct {
		code string
		want []string
		not  []string
	}{
		{"fmt.Pri|", []string{"Printf", "Println", "Print"}, []string{"Sprintf", "Errorf"}},
		{"x := strings.|", []string{"Builder", "Split", "HasPrefix", "NewReader"}, nil},
		{"d := time.Sec|", []string{"Second"}, []string{"Minute"}},
		{"time.Now().|", []string{"Add", "Format", "Unix", "Sub"}, nil},
		{"time.Now().Add(time.Second).For|", []string{"Format"}, nil},
		{"os.Args[0].|", nil, nil},                                      // string: no members, no crash
		{"bytes.NewBu|", []string{"NewBuffer", "NewBufferString"}, nil}, // not imported: default name
		{"fmt.println|", []string{"Println"}, nil},                      // case-insensitive fallback
		{"display.|", []string{"Publish", "Show", "Bundle", "Message"}, []string{"SetPublisher"}},
	}
	for _, tt := range tests {
		c, code := complete(t, shared, tt.code, sc)
		wantMatches(t, c, tt.want...)
		for _, n := range tt.not {
			if slices.Contains(c.Matches, n) {
				t.Errorf("%q: matches include %q", tt.code, n)
			}
		}
		// Every match must start with the typed prefix (ignoring case).
		cursor := strings.Index(tt.code, "|")
		prefix := code[byteOffset(code, c.CursorStart):cursor]
		for _, m := range c.Matches {
			if !strings.HasPrefix(strings.ToLower(m), strings.ToLower(prefix)) {
				t.Errorf("%q: match %q does not start with %q", tt.code, m, prefix)
			}
		}
	}
}

func TestCompleteCursorRange(t *testing.T) {
	sc := &fakeScope{imports: preImports}
	// Cursor in the middle of an identifier: the range covers all of it.
	code := "fmt.Prin(1)"
	c := shared.Complete(code, len("fmt.Pr"), sc)
	if c.CursorStart != len("fmt.") || c.CursorEnd != len("fmt.Prin") {
		t.Errorf("range = [%d,%d), want [4,8)", c.CursorStart, c.CursorEnd)
	}
	wantMatches(t, c, "Println", "Printf")
	types, _ := c.Metadata["_jupyter_types_experimental"].([]any)
	if len(types) != len(c.Matches) {
		t.Errorf("%d type entries for %d matches", len(types), len(c.Matches))
	}
}

func TestCompleteUnicodeCursor(t *testing.T) {
	sc := &fakeScope{imports: preImports}
	for _, code := range []string{
		"s := \"é\"; fmt.Spr|",
		"// 🙂🙂 emoji\nx := \"日本語\" + strings.ToUp|",
	} {
		c, plain := complete(t, shared, code, sc)
		i := strings.Index(code, "|")
		dot := strings.LastIndex(code[:i], ".") + 1
		wantStart := utf8.RuneCountInString(code[:dot])
		if c.CursorStart != wantStart || c.CursorEnd != utf8.RuneCountInString(plain) {
			t.Errorf("%q: range [%d,%d), want [%d,%d)", code, c.CursorStart, c.CursorEnd, wantStart, utf8.RuneCountInString(plain))
		}
		if len(c.Matches) == 0 {
			t.Errorf("%q: no matches", code)
		}
	}
	// A user variable with a non-ASCII name.
	sc2 := &fakeScope{globals: map[string]reflect.Value{"größe": reflect.ValueOf(3)}}
	c, _ := complete(t, shared, "x := grö|", sc2)
	wantMatches(t, c, "größe")
	if c.CursorStart != 5 || c.CursorEnd != 8 {
		t.Errorf("range [%d,%d), want [5,8)", c.CursorStart, c.CursorEnd)
	}
}

func TestCompleteHalfWrittenCell(t *testing.T) {
	sc := &fakeScope{imports: preImports}
	for _, code := range []string{
		"for i := 0; i < 3; i++ {\n\ts := fmt.Spr|",
		"func f() {\n\tif x := (strings.Rep|",
		"x := []int{1, 2,\n  math.Ab|",
	} {
		c, _ := complete(t, shared, code, sc)
		if len(c.Matches) == 0 {
			t.Errorf("%q: no matches", code)
		}
	}
	c, _ := complete(t, shared, "total := 0\nfor i := range 3 {\n\ttot|", sc)
	wantMatches(t, c, "total")
}

func TestCompleteUserNames(t *testing.T) {
	sc := yaegiScope(t,
		`import "fmt"`,
		"type point struct {\n\tX, Y int\n\tname string\n\tTags []string\n}",
		`func (p point) Norm() int { return p.X*p.X + p.Y*p.Y }`,
		`func (p *point) Move(dx int) { p.X += dx }`,
		"// helper doubles n.\nfunc helper(n int) int { return 2 * n }",
		`var p = point{X: 3, Y: 4, name: "a"}`,
		`counter := 7`,
		"type wrapper struct {\n\tpoint\n\tLabel string\n}",
		`var w = wrapper{Label: "w"}`,
	)
	c, _ := complete(t, shared, "cou|", sc)
	wantMatches(t, c, "counter")
	c, _ = complete(t, shared, "x := hel|", sc)
	wantMatches(t, c, "helper")
	c, _ = complete(t, shared, "var q poi|", sc)
	wantMatches(t, c, "point")

	// Fields of a live interpreted struct, with unexported names restored,
	// and its methods from the cell sources.
	c, _ = complete(t, shared, "p.|", sc)
	wantMatches(t, c, "X", "Y", "name", "Tags", "Norm", "Move")
	if slices.Contains(c.Matches, "Xname") {
		t.Errorf("yaegi's internal field name leaked: %v", c.Matches)
	}
	c, _ = complete(t, shared, "p.Tags[0].|", sc)
	if len(c.Matches) != 0 {
		t.Errorf("string has no members, got %v", c.Matches)
	}
	c, _ = complete(t, shared, "w.|", sc)
	wantMatches(t, c, "Label", "point", "X", "Norm")

	// A variable declared earlier with :=, resolved through its type name.
	sc.sources = append(sc.sources, `q := &point{X: 1}`)
	c, _ = complete(t, shared, "q.N|", sc)
	wantMatches(t, c, "Norm")

	// After a type assertion, the asserted type's members.
	sc.sources = append(sc.sources, `var anything any = p`)
	c, _ = complete(t, shared, "anything.(point).|", sc)
	wantMatches(t, c, "X", "Tags", "Norm", "Move")
	c, _ = complete(t, shared, "n := anything.(*point).No|", sc)
	wantMatches(t, c, "Norm")
}

func TestCompleteCompiledValue(t *testing.T) {
	var b strings.Builder
	sc := &fakeScope{globals: map[string]reflect.Value{
		"sb":  reflect.ValueOf(&b),
		"r":   reflect.ValueOf(struct{ Min, Max int }{1, 2}),
		"err": reflect.ValueOf(new(error)).Elem(),
	}, imports: preImports}
	c, _ := complete(t, shared, "sb.Wr|", sc)
	wantMatches(t, c, "WriteString", "WriteByte")
	c, _ = complete(t, shared, "r.M|", sc)
	wantMatches(t, c, "Min", "Max")
	c, _ = complete(t, shared, "err.|", sc)
	wantMatches(t, c, "Error")
	// After a type assertion to a package's type, that type's methods.
	var box any = &b
	sc.globals["box"] = reflect.ValueOf(&box).Elem()
	c, _ = complete(t, shared, "box.(*strings.Builder).Wr|", sc)
	wantMatches(t, c, "WriteString", "WriteByte")
	c, _ = complete(t, shared, "fmt.Stringer(nil).(interface{ String() string }).|", sc)
	if len(c.Matches) != 0 {
		t.Errorf("an assertion to an unnamed type offers %v", c.Matches)
	}
}

func TestCompleteKeywordsAndBuiltins(t *testing.T) {
	c, _ := complete(t, shared, "fu|", nil)
	wantMatches(t, c, "func")
	c, _ = complete(t, shared, "x = ap|", nil)
	wantMatches(t, c, "append")
	c, _ = complete(t, shared, "var f float|", nil)
	wantMatches(t, c, "float32", "float64")
}

func TestCompleteNothingInStringsAndComments(t *testing.T) {
	sc := &fakeScope{imports: preImports}
	for _, code := range []string{
		`fmt.Println("fmt.Pr|`,
		`fmt.Println("fmt.Pr|")`,
		"// fmt.Pr|",
		"/* fmt.Pr| */",
		"x := 1.|",
		"c := 'a|'",
	} {
		c, _ := complete(t, shared, code, sc)
		if len(c.Matches) != 0 {
			t.Errorf("%q: want no matches, got %v", code, head(c.Matches))
		}
	}
}

func TestCompleteImportPath(t *testing.T) {
	for _, code := range []string{`import "encoding/j|`, "import (\n\t\"fmt\"\n\t\"encoding/j|\"\n)"} {
		c, _ := complete(t, shared, code, nil)
		wantMatches(t, c, "encoding/json")
		if c.CursorStart != strings.LastIndex(code, `"`)+1 && c.CursorStart != strings.Index(code, `"encoding`)+1 {
			t.Errorf("%q: start %d", code, c.CursorStart)
		}
	}
}

func TestCompleteExtraSymbols(t *testing.T) {
	type Platform struct{ Name string }
	a := New(Symbols{
		"example.com/lab/cl/cl": {
			"Platforms": reflect.ValueOf(func() []Platform { return nil }),
			"Platform":  reflect.ValueOf((*Platform)(nil)),
		},
	})
	sc := &fakeScope{imports: map[string]string{"cl": "example.com/lab/cl"}}
	c, _ := complete(t, a, "cl.Pl|", sc)
	wantMatches(t, c, "Platforms", "Platform")
	c, _ = complete(t, a, "cl.Platforms()[0].|", sc)
	wantMatches(t, c, "Name")
}
