package cellio

import (
	"encoding/json"
	"testing"
)

// TestBundlePassesThrough checks that a bundle decoded from the engine
// process's JSON encodes again byte for byte: its data is passed on, not
// decoded into Go values and encoded again (which rounded a large integer
// to a float64 and re-escaped every string).
func TestBundlePassesThrough(t *testing.T) {
	in := `{"application/json":{"b":[1,2.50,{"z":null}],"n":9007199254740993},` +
		`"image/png":"iVBORw0KGgo=","text/html":"\u003cb\u003ex\u003c/b\u003e","text/plain":"x\ny"}`
	var m Message
	if err := json.Unmarshal([]byte(`{"kind":0,"data":`+in+`}`), &m); err != nil {
		t.Fatal(err)
	}
	if _, ok := m.Data["image/png"].(json.RawMessage); !ok {
		t.Errorf("image/png decoded into a %T, want json.RawMessage", m.Data["image/png"])
	}
	out, err := json.Marshal(m.Data)
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != in {
		t.Errorf("bundle encoded again as\n%s\nwant\n%s", out, in)
	}
	if txt, ok := m.Data.Text("text/plain"); !ok || txt != "x\ny" {
		t.Errorf(`Text("text/plain") = %q, %v; want "x\ny", true`, txt, ok)
	}
	if _, ok := m.Data.Text("application/json"); ok {
		t.Error(`Text("application/json") of an object: ok, want not ok`)
	}
	if txt, ok := (Bundle{"text/plain": "go"}).Text("text/plain"); !ok || txt != "go" {
		t.Errorf(`Text of a string = %q, %v; want "go", true`, txt, ok)
	}
}

func TestBundleNull(t *testing.T) {
	var r Result
	if err := json.Unmarshal([]byte(`{"data":null}`), &r); err != nil || r.Data != nil {
		t.Errorf("data null: %v, %v; want a nil bundle", r.Data, err)
	}
}
