package engine

import (
	"strings"
	"testing"
)

func TestConversionToAnInterfaceKeepsTheCellType(t *testing.T) {
	e := newEngine(t)
	ok(t, e, "type S int\nfunc (s S) String() string { return \"S!\" }\ntype P struct{ X int }\nfunc (p P) String() string { return \"P!\" }")
	// yaegi gave any(S(1)) as a bare int: %T said int, String was not called.
	_, r := ok(t, e, "w := any(S(1))\n_, isStringer := w.(fmt.Stringer)\n"+
		"fmt.Printf(\"%T %v %v %v\\n\", w, w, isStringer, fmt.Stringer(S(2)))\nfmt.Println(any(P{1}), any(&P{2}))")
	if got, want := r.text("stdout"), "main.S S! true S!\nP! P!\n"; got != want {
		t.Errorf("printed %q, want %q (Go's)", got, want)
	}
	// The shown value of a conversion, too.
	if got, _ := ok(t, e, "any(S(3))"); got != "S!" {
		t.Errorf("any(S(3)) shows %q, want S!", got)
	}
}

// TestConversionAboveTheTypeInOneCell: yaegi's interface8.go in notebook
// form; a function literal there failed to compile.
func TestConversionAboveTheTypeInOneCell(t *testing.T) {
	e := newEngine(t)
	ok(t, e, "var _ = (HI)((*H)(nil))\ntype HI interface{ Hi() string }\ntype H struct{}\nfunc (h *H) Hi() string { return \"hi\" }")
	if _, r := ok(t, e, "fmt.Println((&H{}).Hi())"); r.text("stdout") != "hi\n" {
		t.Errorf("printed %q", r.text("stdout"))
	}
}

func TestConversionTriggers(t *testing.T) {
	kinds := map[string]string{"I": cellIface, "T": cellStruct}
	for code, want := range map[string]bool{
		"x := any(t)":             true,
		"x := error(e)":           true,
		"x := interface{}(t)":     true,
		"x := I(t)":               true,
		"x := T(t)":               false,
		"x := float64(i)":         false,
		"x := strings.ToUpper(s)": false,
	} {
		p := &parsed{body: parseBody(t, code)}
		if got := hasIfaceConversion([]*parsed{p}, kinds); got != want {
			t.Errorf("hasIfaceConversion(%q) = %v, want %v", code, got, want)
		}
	}
	if hasIfaceConversion([]*parsed{{body: parseBody(t, "x := any(t)")}}, nil) {
		t.Error("a session with no cell types converts nothing of theirs")
	}
	_ = strings.TrimSpace
}
