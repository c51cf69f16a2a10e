package cellvalue_test

import (
	"bytes"
	"fmt"
	"io"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seed43a1e1ab/gocl/kernel/cellvalue"
)

// c is one value: the real one, its box, and the raw value compiled code
// is given today.
type c struct {
	name     string
	real     any
	boxed    any
	raw      any
	pointers bool // prints addresses below the top: only the v verbs, addresses normalised
}

func mk[T any](name string, v T) c {
	return c{name: name, real: v, boxed: box(v), raw: rawOf(v)}
}

func mkp[T any](name string, v T) c {
	x := mk(name, v)
	x.pointers = true
	return x
}

var (
	lvl   = Level(2)
	inner = Inner{B: 7, c: "sea"}
	qe    = &QueryError{Query: "select", Err: errBase}
)

func values() []c {
	var nilT *T
	var nilQE *QueryError
	var nilPairs []Pair
	var nilMap map[Name]Level
	var noErr error
	return []c{
		mk("T", T{A: 1, hidden: "h"}),
		mk("*T", &T{A: 2, hidden: "p"}),
		mk("nil *T", nilT),
		mk("Level", lvl),
		mk("Level unknown", Level(9)),
		mk("Name", Name("bob")),
		mk("Celsius", Celsius(36.6)),
		mk("Pair", Pair{"k", 1}),
		mk("[]Pair", []Pair{{"a", 0}, {"b", 2}}),
		mk("nil []Pair", nilPairs),
		mk("[]Level", []Level{0, 2}),
		mk("[2]Level", [2]Level{1, 0}),
		mk("map[string]Level", map[string]Level{"z": 0, "a": 1, "m": 2}),
		mk("map[Name]Level nil", nilMap),
		mk("map[Level]Name", map[Level]Name{2: "two", 0: "zero"}),
		mk("Inner", inner),
		mk("Outer", Outer{Inner: inner, L: 1, l: 2, E: ValErr{"v"}, X: Pair{"x", 2}, M: map[string]Level{"q": 1}, S: []Pair{{"s", 0}}, N: "n", ns: []Name{"a"}}),
		mk("Outer zero", Outer{}),
		mk("ValErr", ValErr{"bad"}),
		mk("error ValErr", error(ValErr{"iface"})),
		mk("error nil", noErr),
		mk("any Pair", any(Pair{"i", 1})),
		mk("[]any", []any{Level(1), Name("n"), 3, "s", nil, T{A: 4}}),
		mk("Boom", Boom{1}),
		mk("[]Boom", []Boom{{1}}),
		mk("Fancy", Fancy(5)),
		mk("[]Fancy", []Fancy{1, 2}),
		mk("GoS", GoS{3}),
		mk("[]GoS", []GoS{{1}}),
		mk("PtrStr", PtrStr{1}),
		mk("*PtrStr", &PtrStr{2}),
		mk("[]Color", []Color{1, 2}),
		mk("Color", Color(65)),
		mk("Bytes", Bytes("hi!")),
		mk("Grid", Grid{{1, 2}, {3, 4}}),
		mk("Shape", Shape(Sq{2})),
		mk("[]Shape", []Shape{Sq{1}, nil}),
		mk("Multi", Multi{[]error{errBase, ValErr{"m"}}}),
		mk("embedsErr", embedsErr{ValErr{"e"}, 3}),
		mk("Duration field", struct {
			D time.Duration
			d time.Duration
			L Level
		}{time.Second, time.Minute, 1}),
		mk("nil *QueryError", nilQE),
		mk("Flag", Flag(true)),
		mk("Cplx", Cplx(1+2i)),
		mk("IP", IP{10, 0, 0, 1}),
		mk("[]IP", []IP{{1, 2, 3, 4}}),
		mk("Set", Set{"a": true}),
		mk("Raw", Raw{65, 66, 67}),
		mk("Uptr", Uptr(77)),
		mk("Ptrs nil", Ptrs{N: 1, x: (*T)(nil), S: Set{}, f: true}),
		mk("any nil *T", any((*T)(nil))),
		mk("[]any typed nil", []any{(*T)(nil), Level(0)}),
		mk("map[IP]Level", map[IP]Level{{2, 0, 0, 0}: 1, {1, 0, 0, 0}: 2}),
		mkp("*QueryError", qe),
		mkp("WithPtr", WithPtr{P: &Inner{B: 1}, Q: &T{A: 5}}),
		mkp("WithPtr nil", WithPtr{}),
		mkp("[]*T", []*T{{A: 1}, nil}),
		mkp("Node", &Node{1, &Node{2, nil}}),
		mkp("[]*PtrStr", []*PtrStr{{1}, nil}),
		mkp("struct *PtrStr", struct {
			P *PtrStr
			p *PtrStr
		}{&PtrStr{1}, nil}),
		mkp("[]*QueryError", []*QueryError{{Query: "a", Err: errBase}, nil}),
		mkp("Ptrs", Ptrs{Inner: &Inner{B: 1}, N: 2, x: &T{}}),
	}
}

var allVerbs = []string{
	"%v", "%+v", "%#v", "%s", "%q", "%x", "%X", "%d", "%o", "%O", "%b", "%e", "%E", "%f", "%F", "%g", "%G",
	"%t", "%c", "%U", "%T", "%w", "%z", "%5v|", "%-8v|", "%08.3f", "%+d", "% x", "%#x", "%.2s", "%10.3v|",
	"%+q", "%#q", "%-+#v", "%#+v", "%+s", "%#s", "%x|%[1]v", "%[1]*[2]v", "%6.2[1]v", "% 04d", "%#o", "%#b",
}

var vVerbs = []string{"%v", "%+v", "%#v", "%s", "%T", "%10v|"}

var addr = regexp.MustCompile(`0x[0-9a-f]{6,}`)

func TestPrintfAgreesWithFmt(t *testing.T) {
	differ, total := 0, 0
	for _, x := range values() {
		verbs := allVerbs
		if x.pointers {
			verbs = vVerbs
		}
		for _, verb := range verbs {
			args := []any{x.real, 3}
			bargs := []any{x.boxed, 3}
			rargs := []any{x.raw, 3}
			if !strings.Contains(verb, "[") {
				args, bargs, rargs = args[:1], bargs[:1], rargs[:1]
			}
			want := fmt.Sprintf(verb, args...)
			got := cellvalue.Sprintf(verb, bargs...)
			bypass := fmt.Sprintf(verb, rargs...)
			if x.pointers {
				want, got, bypass = addr.ReplaceAllString(want, "0xP"), addr.ReplaceAllString(got, "0xP"), addr.ReplaceAllString(bypass, "0xP")
			}
			total++
			if bypass != want {
				differ++
			}
			if got != want {
				t.Errorf("%s %q:\n got %q\nwant %q", x.name, verb, got, want)
			}
		}
	}
	// The table must be able to fail: without the box most answers are wrong.
	if differ*3 < total {
		t.Errorf("only %d of %d cases differ when the box is bypassed: the table does not test the box", differ, total)
	}
	t.Logf("%d cases, %d wrong without the box", total, differ)
}

func TestPrintAndPrintlnAgree(t *testing.T) {
	for _, x := range values() {
		for _, other := range []c{mk("Name", Name("x")), mk("int", 5), mk("string", "s"), mk("Level", Level(0))} {
			for _, pair := range [][2]c{{x, other}, {other, x}} {
				want := fmt.Sprint(pair[0].real, pair[1].real)
				got := cellvalue.Sprint(pair[0].boxed, pair[1].boxed)
				wantln := fmt.Sprintln(pair[0].real, pair[1].real)
				gotln := cellvalue.Sprintln(pair[0].boxed, pair[1].boxed)
				if pair[0].pointers || pair[1].pointers {
					want, got = addr.ReplaceAllString(want, "0xP"), addr.ReplaceAllString(got, "0xP")
					wantln, gotln = addr.ReplaceAllString(wantln, "0xP"), addr.ReplaceAllString(gotln, "0xP")
				}
				if got != want || gotln != wantln {
					t.Errorf("Sprint(%s, %s) = %q, %q; want %q, %q", pair[0].name, pair[1].name, got, gotln, want, wantln)
				}
			}
		}
	}
	// A boxed named string type is a string operand: no space next to it.
	if got, want := cellvalue.Sprint(box(Name("a")), box(Name("b")), 1, 2), fmt.Sprint(Name("a"), Name("b"), 1, 2); got != want {
		t.Errorf("spacing: %q, want %q", got, want)
	}
}

func TestPrintfFormatErrors(t *testing.T) {
	cases := []struct {
		format string
		args   []any
	}{
		{"%d %d", []any{Level(1)}},
		{"%v", []any{Level(1), T{A: 1}, Name("x"), nil}},
		{"%[3]v", []any{Level(1)}},
		{"%[0]v %[x]d", []any{Level(1)}},
		{"%*d|", []any{Level(4), 7}},
		{"%-*d|", []any{Level(-5), Level(7)}},
		{"%.*f|", []any{Level(2), Celsius(1.234)}},
		{"%*v", []any{"x", Level(1)}},
		{"%.*v", []any{Name("x"), Level(1)}},
		{"%", []any{Level(1)}},
		{"%3.", []any{Level(1)}},
		{"%[2]v %v %[1]v", []any{Level(1), Name("n")}},
		{"%[2]*[1]d|", []any{Level(12), 5}},
		{"%!", nil},
		{"%v %w", []any{ValErr{"a"}, ValErr{"b"}}},
		{"100%% %v", []any{Pair{"p", 1}}},
		{"%-10T|%.3T|", []any{T{}, Level(1)}},
		{"%s", []any{[]any{Level(1), nil}}},
		{"%d", []any{map[Level]Pair{1: {"a", 2}}}},
		{"%v %v", []any{error(nil), any(nil)}},
		{"%x %X", []any{Name("hi"), Bytes("hi")}},
		{"%s|%v|%d", []any{[]Color{65, 66}, []Color{65}, Bytes{1, 2}}},
		{"%c|%q|%U|%#U", []any{Level(65), Level(0x1F600), Color(66), Level(66)}},
	}
	for _, tc := range cases {
		want := fmt.Sprintf(tc.format, tc.args...)
		boxed := make([]any, len(tc.args))
		for i, a := range tc.args {
			boxed[i] = boxAny(a)
		}
		if got := cellvalue.Sprintf(tc.format, boxed...); got != want {
			t.Errorf("Sprintf(%q):\n got %q\nwant %q", tc.format, got, want)
		}
	}
}

// boxAny boxes a value whose static type is its dynamic type.
func boxAny(a any) any {
	switch v := a.(type) {
	case Level:
		return box(v)
	case Name:
		return box(v)
	case T:
		return box(v)
	case Pair:
		return box(v)
	case Celsius:
		return box(v)
	case ValErr:
		return box(v)
	case []any:
		return box(v)
	case map[Level]Pair:
		return box(v)
	case Bytes:
		return box(v)
	case []Color:
		return box(v)
	case Color:
		return box(v)
	}
	return a
}

func TestPointerVerbPrintsTheRawAddress(t *testing.T) {
	p := &T{A: 1}
	b := box(p)
	raw, _, _ := cellvalue.Unbox(b)
	want := fmt.Sprintf("%p|%#p|%v", raw, raw, fmt.Sprintf("%p", raw) != "")
	if got := cellvalue.Sprintf("%p|%#p|%v", b, b, true); got != want {
		t.Errorf("%%p: got %q, want %q", got, want)
	}
	pverb := "%p"
	if got := cellvalue.Sprintf(pverb, box(Level(1))); got != fmt.Sprintf(pverb, Level(1)) {
		t.Errorf("%%p of a non-pointer: %q", got)
	}
}

func TestUntypedNilOfAPointerType(t *testing.T) {
	pt := theFake.typeOf(reflect.TypeOf((*T)(nil)))
	var nilT *T
	for _, f := range []string{"%v", "%+v", "%#v", "%T", "%d", "%s"} {
		if got, want := cellvalue.Sprintf(f, cellvalue.Box(nil, pt)), fmt.Sprintf(f, nilT); got != want {
			t.Errorf("%q of Box(nil, *T): %q, want %q", f, got, want)
		}
	}
}

func TestNilReceiverAndPanickingMethods(t *testing.T) {
	var nilQE *QueryError
	for _, f := range []string{"%v", "%s", "%+v", "%d", "%10v|"} {
		if got, want := cellvalue.Sprintf(f, box(nilQE)), fmt.Sprintf(f, nilQE); got != want {
			t.Errorf("nil receiver %q: %q, want %q", f, got, want)
		}
	}
	if got, want := cellvalue.Sprint(box(Boom{1})), fmt.Sprint(Boom{1}); got != want || !strings.Contains(got, "PANIC=String method: boom") {
		t.Errorf("panicking String: %q, want %q", got, want)
	}
}

func TestFmtItselfPrintsABoxAsTheValue(t *testing.T) {
	// Compiled code that is handed a box (log, a compiled helper) gets the
	// real value's output for every verb but %T and %p.
	for _, x := range values() {
		if x.pointers {
			continue
		}
		for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%d", "%8.2v|", "%x"} {
			if got, want := fmt.Sprintf(verb, x.boxed), fmt.Sprintf(verb, x.real); got != want && x.real != nil {
				t.Errorf("fmt.Sprintf(%q, box %s) = %q, want %q", verb, x.name, got, want)
			}
		}
	}
}

func TestWritersAndAppenders(t *testing.T) {
	var buf bytes.Buffer
	cellvalue.Fprintf(&buf, "%v;", box(lvl))
	cellvalue.Fprint(&buf, box(lvl), box(Name("n")))
	cellvalue.Fprintln(&buf, box(lvl), box(T{A: 1}))
	b := cellvalue.Appendf([]byte("<"), "%+v", box(T{A: 1, hidden: "x"}))
	b = cellvalue.Append(b, box(Name("a")), box(lvl))
	b = cellvalue.Appendln(b, box(lvl))
	want := "warn;warnnwarn {1 }\n" + "<{A:1 hidden:x}awarnwarn\n"
	if got := buf.String() + string(b); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	var n int
	n, _ = cellvalue.Fprintf(io.Discard, "%v", box(lvl))
	if n != 4 {
		t.Errorf("Fprintf counted %d bytes", n)
	}
}

func TestMismatchedShapePrintsTheRawValue(t *testing.T) {
	st := &cellvalue.Type{Kind: cellvalue.Struct, String: "main.S", Fields: []cellvalue.Field{{Name: "a"}}}
	named := &cellvalue.Type{Kind: cellvalue.Named, Name: "main.S", String: "main.S", Under: st}
	for _, raw := range []any{42, "s", []int{1}, struct{ A, B int }{1, 2}, nil} {
		for _, verb := range []string{"%v", "%+v", "%d", "%s"} {
			got := cellvalue.Sprintf(verb, cellvalue.Box(raw, named))
			if want := fmt.Sprintf(verb, raw); got != want && raw != nil {
				t.Errorf("%q of mismatched %#v: %q, want %q", verb, raw, got, want)
			}
		}
	}
	sl := &cellvalue.Type{Kind: cellvalue.Slice, String: "[]main.S", Elem: named}
	if got := cellvalue.Sprint(cellvalue.Box(map[int]int{1: 2}, sl)); got != "map[1:2]" {
		t.Errorf("mismatched slice: %q", got)
	}
}

func TestConcurrentPrinting(t *testing.T) {
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 200; j++ {
				x := box(Outer{L: Level(j % 3), S: []Pair{{"a", 1}}})
				if got, want := cellvalue.Sprintf("%+v", x), fmt.Sprintf("%+v", Outer{L: Level(j % 3), S: []Pair{{"a", 1}}}); got != want {
					t.Errorf("concurrent: %q, want %q", got, want)
					return
				}
			}
		}()
	}
	wg.Wait()
}
