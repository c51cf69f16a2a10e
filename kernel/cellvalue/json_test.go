package cellvalue_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/netip"
	"strings"
	"testing"
	"text/template"
	"time"

	"github.com/seed43a1e1ab/gocl/kernel/cellvalue"
)

type Stamp int

func (s Stamp) MarshalJSON() ([]byte, error) { return []byte(fmt.Sprintf(`"t%d"`, int(s))), nil }

type PtrStamp int

func (s *PtrStamp) MarshalJSON() ([]byte, error) { return []byte(`"ptr"`), nil }

type Code int

func (c Code) MarshalText() ([]byte, error) { return []byte(fmt.Sprintf("c-%d", int(c))), nil }

type KeyT struct{ A, B int }

func (k KeyT) MarshalText() ([]byte, error) { return []byte(fmt.Sprintf("%d/%d", k.A, k.B)), nil }

type BadJ struct{}

func (BadJ) MarshalJSON() ([]byte, error) { return nil, errors.New("bad") }

type Garbage struct{}

func (Garbage) MarshalJSON() ([]byte, error) { return []byte("{nope"), nil }

type base struct {
	ID   int `json:"id"`
	note string
}

type J struct {
	A      int    `json:"a"`
	B      string `json:"b,omitempty"`
	hidden int
	Inner
	*base
	L    Level `json:"level"`
	T    Stamp `json:"t"`
	TP   PtrStamp
	C    Code   `json:",omitempty"`
	Opt  *int   `json:",omitempty"`
	Q    int    `json:",string"`
	N    Name   `json:"n,omitempty"`
	Skip string `json:"-"`
	E    error
	X    any
	Ps   []Pair
	Ms   map[Level]Pair
	Ks   map[KeyT]int
	Cs   map[Code]bool
	By   Bytes
	Ls   []Level `json:",omitempty"`
	Z    Pair    `json:",omitzero"`
}

func jsonValues() []c {
	seven := 7
	var nilJ *J
	full := J{A: 1, B: "b", hidden: 2, Inner: Inner{B: 3, c: "x"}, base: &base{ID: 9, note: "n"}, L: 2, T: 4, TP: 5,
		C: 6, Opt: &seven, Q: 8, N: "nm", Skip: "s", E: ValErr{"e"}, X: Pair{"x", 1},
		Ps: []Pair{{"p", 0}}, Ms: map[Level]Pair{2: {"two", 2}, 0: {"zero", 0}}, Ks: map[KeyT]int{{1, 2}: 3, {0, 1}: 4},
		Cs: map[Code]bool{3: true}, By: Bytes("hey"), Ls: []Level{1}, Z: Pair{"z", 0}}
	return []c{
		mk("J", full),
		mk("*J", &full),
		mk("J zero", J{}),
		mk("nil *J", nilJ),
		mk("[]Stamp", []Stamp{1, 2}),
		mk("[]PtrStamp", []PtrStamp{1}),
		mk("PtrStamp", PtrStamp(1)),
		mk("*PtrStamp", new(PtrStamp)),
		mk("[]*PtrStamp nil", []*PtrStamp{nil}),
		mk("T", T{A: 1, hidden: "h"}),
		mk("Outer", Outer{Inner: inner, L: 1, E: ValErr{"v"}, X: []any{Level(1), T{A: 2}}, M: map[string]Level{"q": 1}, N: "n"}),
		mk("map[Level]Code", map[Level]Code{1: 2}),
		mk("[]any", []any{Pair{"a", 1}, nil, 3, Stamp(2)}),
		mk("Grid", Grid{{1, 2}, {3, 4}}),
		mk("[]Color", []Color{1, 2}),
		mk("embedsErr", embedsErr{ValErr{"e"}, 3}),
		mk("Node", &Node{1, &Node{2, nil}}),
		mk("compiled text keys", struct{ M map[netip.Addr]Level }{map[netip.Addr]Level{netip.MustParseAddr("10.0.0.1"): 1}}),
		mk("compiled values", struct {
			D time.Duration
			T time.Time
			A netip.Addr
			L Level
		}{time.Second, time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC), netip.MustParseAddr("::1"), 2}),
	}
}

func TestMarshalAgreesWithJSON(t *testing.T) {
	differ := 0
	for _, x := range jsonValues() {
		want, werr := json.Marshal(x.real)
		got, gerr := cellvalue.Marshal(x.boxed)
		if string(got) != string(want) || (werr == nil) != (gerr == nil) {
			t.Errorf("Marshal(%s):\n got %s %v\nwant %s %v", x.name, got, gerr, want, werr)
		}
		if bypass, _ := json.Marshal(x.raw); string(bypass) != string(want) {
			differ++
		}
		// A box handed to compiled json gives the same.
		if viaBox, err := json.Marshal(x.boxed); string(viaBox) != string(want) || err != nil && x.real != nil {
			t.Errorf("json.Marshal(box %s) = %s %v, want %s", x.name, viaBox, err, want)
		}
		wantI, _ := json.MarshalIndent(x.real, "> ", "\t")
		if gotI, _ := cellvalue.MarshalIndent(x.boxed, "> ", "\t"); string(gotI) != string(wantI) {
			t.Errorf("MarshalIndent(%s):\n got %s\nwant %s", x.name, gotI, wantI)
		}
		var wb, gb bytes.Buffer
		we, ge := json.NewEncoder(&wb), json.NewEncoder(&gb)
		we.SetEscapeHTML(false)
		ge.SetEscapeHTML(false)
		we.SetIndent("", " ")
		ge.SetIndent("", " ")
		we.Encode(x.real)
		if err := cellvalue.EncodeJSON(ge, x.boxed); err != nil || gb.String() != wb.String() {
			t.Errorf("EncodeJSON(%s) = %s %v, want %s", x.name, gb.String(), err, wb.String())
		}
	}
	if differ < len(jsonValues())/2 {
		t.Errorf("only %d values differ without the box: the table does not test it", differ)
	}
}

func TestMarshalErrors(t *testing.T) {
	n := &Node{V: 1}
	n.Next = n
	cases := []c{mk("BadJ", BadJ{}), mk("[]BadJ", []BadJ{{}}), mk("Garbage", Garbage{}), mk("cycle", n),
		mk("chan", struct{ C chan int }{}), mk("map[T]int", map[T]int{{A: 1}: 1}), mk("nil map[T]int", map[T]int(nil))}
	for _, x := range cases {
		_, werr := json.Marshal(x.real)
		_, gerr := cellvalue.Marshal(x.boxed)
		if werr == nil || gerr == nil || gerr.Error() != werr.Error() {
			t.Errorf("Marshal(%s) error %v, want %v", x.name, gerr, werr)
		}
	}
}

func TestMirrorInTemplates(t *testing.T) {
	const text = `{{.A}} {{.L}} {{.N}} {{range .S}}{{.Key}}={{.Val}};{{end}} {{.Inner.B}} {{.B}} {{index .M "q"}} {{.X}} {{.}}`
	tmpl := template.Must(template.New("t").Parse(text))
	type view struct {
		A int
		Outer
	}
	_ = view{}
	o := Outer{Inner: inner, L: 2, l: 1, M: map[string]Level{"q": 1}, S: []Pair{{"a", 0}, {"b", 2}}, N: "nm", X: Pair{"x", 1}}
	real := struct {
		A int
		Outer
	}{5, o}
	var want, got strings.Builder
	if err := tmpl.Execute(&want, real); err != nil {
		t.Fatal(err)
	}
	b := box(real)
	raw, typ, _ := cellvalue.Unbox(b)
	if err := tmpl.Execute(&got, cellvalue.Mirror(raw, typ)); err != nil {
		t.Fatalf("template over the mirror: %v", err)
	}
	if got.String() != want.String() {
		t.Errorf("template:\n got %s\nwant %s", got.String(), want.String())
	}
	var bypass strings.Builder
	if err := tmpl.Execute(&bypass, raw); err == nil && bypass.String() == want.String() {
		t.Error("the template gives the same answer on the raw value: the test does not test the mirror")
	}
}
