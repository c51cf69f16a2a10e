package cellvalue_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/seed43a1e1ab/gocl/kernel/cellvalue"
)

type Temp float64

func (t *Temp) UnmarshalJSON(b []byte) error {
	s := strings.Trim(string(b), `"C`)
	var f float64
	if _, err := fmt.Sscan(s, &f); err != nil {
		return errors.New("bad temp " + string(b))
	}
	*t = Temp(f)
	return nil
}

type Mode int

func (m *Mode) UnmarshalText(b []byte) error {
	switch string(b) {
	case "on":
		*m = 1
	case "off":
		*m = 0
	default:
		return errors.New("bad mode " + string(b))
	}
	return nil
}

type Extra struct{ Note string }

type Conf struct {
	Name  string `json:"name"`
	Level Level  `json:"level"`
	Inner
	*Extra
	T      Temp
	Mo     Mode
	List   []Pair
	M      map[string]Level
	P      *Pair
	X      any
	Tree   *Node
	hidden int
	Arr    [2]Level
}

func TestUnmarshalAgreesWithJSON(t *testing.T) {
	start := func() Conf {
		return Conf{Name: "old", hidden: 5, M: map[string]Level{"keep": 1}, P: &Pair{"p", 1}, List: []Pair{{"a", 1}, {"b", 2}}}
	}
	inputs := []string{
		`{"name":"n","level":2,"B":7,"c":"no","Note":"x","T":"36.6C","Mo":"on","List":[{"Key":"k","Val":1}],"M":{"new":2},"P":{"Val":2},"X":{"a":[1,"s"]},"Tree":{"V":1,"Next":{"V":2}},"hidden":9,"Xhidden":8,"Arr":[1]}`,
		`{"List":null,"M":null,"P":null,"Tree":null}`,
		`{"level":"high"}`,
		`{"List":[{"Val":"x"}]}`,
		`{"B":"seven"}`,
		`{"T":"warm"}`,
		`{"Mo":"maybe"}`,
		`{"Mo":3}`,
		`{"Tree":{"Next":{"V":"deep"}}}`,
		`{"name":`,
		`[]`,
	}
	for _, in := range inputs {
		real := start()
		werr := json.Unmarshal([]byte(in), &real)

		raw := reflect.ValueOf(rawOf(start()))
		rawPtr := reflect.New(raw.Type())
		rawPtr.Elem().Set(raw)
		gerr := cellvalue.Unmarshal([]byte(in), rawPtr.Interface(), theFake.typeOf(reflect.TypeOf(&real)))
		got := theFake.fromRaw(rawPtr.Elem(), reflect.TypeOf(real)).Interface().(Conf)
		if fmt.Sprint(werr) != fmt.Sprint(gerr) {
			t.Errorf("Unmarshal(%s) error:\n got %v\nwant %v", in, gerr, werr)
		}
		w := addr.ReplaceAllString(fmt.Sprintf("%+v|%v|%v|%v", real, real.Extra, real.P, real.Tree), "0xP")
		g := addr.ReplaceAllString(fmt.Sprintf("%+v|%v|%v|%v", got, got.Extra, got.P, got.Tree), "0xP")
		if w != g {
			t.Errorf("Unmarshal(%s):\n got %s\nwant %s", in, g, w)
		}
	}
	// Decoding into the raw value directly is what the mirror prevents.
	in := `{"B":7,"Xhidden":8,"P":{"Val":2}}`
	var real Conf
	json.Unmarshal([]byte(in), &real)
	bypass := reflect.New(reflect.TypeOf(rawOf(Conf{})))
	if err := json.Unmarshal([]byte(in), bypass.Interface()); err != nil {
		t.Fatal(err)
	}
	if b := theFake.fromRaw(bypass.Elem(), reflect.TypeOf(real)).Interface().(Conf); b.B == real.B && b.hidden == real.hidden {
		t.Error("decoding into the raw value gives the right answer: the test does not test the mirror")
	}
	// json reuses the pointers it decodes into; so does the mirror.
	raw := reflect.New(reflect.TypeOf(rawOf(Conf{})))
	raw.Elem().Set(reflect.ValueOf(rawOf(Conf{P: &Pair{"p", 0}})))
	before := raw.Elem().FieldByName("P").Pointer()
	if err := cellvalue.Unmarshal([]byte(in), raw.Interface(), theFake.typeOf(reflect.TypeOf(&real))); err != nil {
		t.Fatal(err)
	}
	if after := raw.Elem().FieldByName("P").Pointer(); after != before {
		t.Error("the decode replaced the raw pointer json would have reused")
	}
}

func TestDecodeJSONStream(t *testing.T) {
	in := `{"name":"a","level":1} {"name":"b","B":2}`
	wd, gd := json.NewDecoder(strings.NewReader(in)), json.NewDecoder(bytes.NewReader([]byte(in)))
	for i := 0; i < 3; i++ {
		var real Conf
		werr := wd.Decode(&real)
		raw := reflect.New(reflect.TypeOf(rawOf(Conf{})))
		gerr := cellvalue.DecodeJSON(gd, raw.Interface(), theFake.typeOf(reflect.TypeOf(&real)))
		got := theFake.fromRaw(raw.Elem(), reflect.TypeOf(real)).Interface().(Conf)
		if fmt.Sprint(werr) != fmt.Sprint(gerr) || fmt.Sprintf("%+v", got) != fmt.Sprintf("%+v", real) {
			t.Errorf("Decode %d: %+v %v, want %+v %v", i, got, gerr, real, werr)
		}
	}
	var n int
	if err := cellvalue.Unmarshal([]byte("3"), &n, nil); err != nil || n != 3 {
		t.Errorf("Unmarshal into a compiled target: %d %v", n, err)
	}
	if err := cellvalue.Unmarshal([]byte("{}"), rawOf(Conf{}), theFake.typeOf(reflect.TypeOf(Conf{}))); err == nil ||
		err.Error() != "json: Unmarshal(non-pointer cellvalue_test.Conf)" {
		t.Errorf("non-pointer target: %v", err)
	}
}
