package widgets

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/seed43a1e1ab/gocl/kernel/cellctx"
	"github.com/seed43a1e1ab/gocl/kernel/cellio"
	"github.com/seed43a1e1ab/gocl/kernel/comm"
	"github.com/seed43a1e1ab/gocl/kernel/display"
)

// wire records what the kernel side publishes, as a front end would see it:
// every message through a JSON round trip.
type wire struct {
	t    *testing.T
	mu   sync.Mutex
	msgs []comm.Message
	disp []display.Message
}

// newWire begins a request whose sink is a new wire, as the engine begins
// one for each request; its context is the background one, so it stands
// for a comm message's request, not a cell's.
func newWire(t *testing.T) *wire {
	t.Helper()
	w := &wire{t: t}
	comm.Reset()
	_, end := cellctx.Begin(context.Background(), cellctx.IO{Sink: w})
	t.Cleanup(func() {
		end()
		comm.Reset()
	})
	return w
}

func (w *wire) Stream(name, text string)           {}
func (w *wire) Input(string, bool) (string, error) { return "", cellio.ErrNoStdin }

func (w *wire) Display(m display.Message) {
	w.mu.Lock()
	w.disp = append(w.disp, m)
	w.mu.Unlock()
}

func (w *wire) Comm(m comm.Message) {
	raw, err := json.Marshal(m.Data)
	if err != nil {
		w.t.Errorf("comm %s data does not marshal: %v", m.Type, err)
	}
	var data map[string]any
	_ = json.Unmarshal(raw, &data)
	m.Data = data
	w.mu.Lock()
	w.msgs = append(w.msgs, m)
	w.mu.Unlock()
}

func (w *wire) take() []comm.Message {
	w.mu.Lock()
	defer w.mu.Unlock()
	m := w.msgs
	w.msgs = nil
	return m
}

// opens returns the comm_open messages by comm id.
func opens(ms []comm.Message) map[string]comm.Message {
	out := map[string]comm.Message{}
	for _, m := range ms {
		if m.Type == comm.TypeOpen {
			out[m.CommID] = m
		}
	}
	return out
}

// published loads the published model specification independently of
// spec.go: name -> attribute -> its entry.
func published(t *testing.T) map[string]map[string]map[string]any {
	t.Helper()
	raw, err := os.ReadFile("schema/jupyterwidgetmodels.latest.json")
	if err != nil {
		t.Fatal(err)
	}
	var list []map[string]any
	if err := json.Unmarshal(raw, &list); err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]map[string]any{}
	for _, m := range list {
		name := m["model"].(map[string]any)["name"].(string)
		attrs := map[string]map[string]any{}
		for _, a := range m["attributes"].([]any) {
			a := a.(map[string]any)
			attrs[a["name"].(string)] = a
		}
		out[name] = attrs
	}
	return out
}

// checkValue checks a JSON value against a spec attribute's type.
func checkValue(a map[string]any, v any) error {
	if v == nil {
		if a["allow_none"] == true {
			return nil
		}
		return fmt.Errorf("null, but the attribute does not allow none")
	}
	types := []any{a["type"]}
	if l, ok := a["type"].([]any); ok {
		types = l
	}
	for _, t := range types {
		ok := false
		switch t {
		case "int":
			f, isNum := v.(float64)
			ok = isNum && f == float64(int64(f))
		case "float":
			_, ok = v.(float64)
		case "string":
			s, isStr := v.(string)
			ok = isStr
			if enum, has := a["enum"].([]any); has && isStr {
				ok = false
				for _, e := range enum {
					ok = ok || e == s
				}
			}
		case "bool":
			_, ok = v.(bool)
		case "array":
			_, ok = v.([]any)
		case "object":
			_, ok = v.(map[string]any)
		case "reference":
			s, isStr := v.(string)
			ok = isStr && strings.HasPrefix(s, "IPY_MODEL_")
		}
		if ok {
			return nil
		}
	}
	return fmt.Errorf("%v (%T) is not of type %v", v, v, a["type"])
}

// TestStatesFollowTheSpec makes every widget and checks each comm_open the
// front end gets: target jupyter.widget, protocol version 2.1.0 in the
// metadata, a state with every attribute of the model's published
// specification and no other, each value of the attribute's type, the
// controls' module @jupyter-widgets/controls 2.0.0, and references only to
// models opened before.
func TestStatesFollowTheSpec(t *testing.T) {
	w := newWire(t)
	spec := published(t)
	out := NewOutput()
	made := []Widget{
		NewIntSlider("n", 0, 10, 3), NewFloatSlider("x", 0, 1, 0.5), NewFloatLogSlider("size", 3, 9, 1e6),
		NewDropdown("memory", []string{"pageable", "pinned", "mapped"}, "pinned"),
		NewToggleButtons("direction", []string{"to device", "to host"}, "to host"), NewCheckbox("blocking", true),
		NewButton("run"), NewText("name", "gocl"), out, NewLabel("hello"), NewPlay(0, 10, 0, 100),
	}
	made = append(made, NewHBox(made[0], made[1]), NewVBox(made[2], out))
	made = append(made, Link(made[10], "value", made[0], "value"))
	msgs := w.take()
	seen := map[string]bool{}
	wantModule := map[string][2]string{"OutputModel": {"@jupyter-widgets/output", "1.0.0"},
		"LayoutModel": {"@jupyter-widgets/base", "2.0.0"}}
	for _, m := range msgs {
		if m.Type != comm.TypeOpen {
			t.Fatalf("making widgets sent %s, want only comm_open", m.Type)
		}
		if m.TargetName != "jupyter.widget" || m.Metadata["version"] != "2.1.0" {
			t.Errorf("comm_open target %q metadata %v, want jupyter.widget and version 2.1.0", m.TargetName, m.Metadata)
		}
		st, _ := m.Data["state"].(map[string]any)
		if bp, ok := m.Data["buffer_paths"].([]any); !ok || len(bp) != 0 {
			t.Errorf("comm_open buffer_paths %v, want []", m.Data["buffer_paths"])
		}
		name, _ := st["_model_name"].(string)
		attrs := spec[name]
		if attrs == nil {
			t.Fatalf("comm_open of an unknown model %q", name)
		}
		mod := [2]string{"@jupyter-widgets/controls", "2.0.0"}
		if x, ok := wantModule[name]; ok {
			mod = x
		}
		if st["_model_module"] != mod[0] || st["_model_module_version"] != mod[1] {
			t.Errorf("%s: module %v %v, want %v", name, st["_model_module"], st["_model_module_version"], mod)
		}
		for a := range attrs {
			if _, ok := st[a]; !ok {
				t.Errorf("%s: state lacks %s", name, a)
			}
		}
		for k, v := range st {
			a := attrs[k]
			if a == nil {
				t.Errorf("%s: state has %s, which the spec does not know", name, k)
				continue
			}
			if err := checkValue(a, v); err != nil {
				t.Errorf("%s.%s: %v", name, k, err)
			}
			refs := []any{v}
			if l, ok := v.([]any); ok {
				refs = l
			}
			for _, r := range refs {
				if s, ok := r.(string); ok && strings.HasPrefix(s, "IPY_MODEL_") && !seen[strings.TrimPrefix(s, "IPY_MODEL_")] {
					t.Errorf("%s.%s refers to %s, not opened before it", name, k, s)
				}
			}
		}
		seen[m.CommID] = true
	}
	for _, x := range made {
		if !seen[x.Base().ID()] {
			t.Errorf("%s was never opened", x.Base().ModelName())
		}
	}
	if st := opens(msgs)[made[3].Base().ID()].Data["state"].(map[string]any); st["index"] != 1.0 ||
		!reflect.DeepEqual(st["_options_labels"], []any{"pageable", "pinned", "mapped"}) {
		t.Errorf("Dropdown state: index %v labels %v", st["index"], st["_options_labels"])
	}
}

// TestFrontEndUpdate is the page dragging a slider: the kernel echoes the
// update (echo_update) before anything else, the Go value changes and the
// OnChange callback runs with it, its prints going to the Output given.
func TestFrontEndUpdate(t *testing.T) {
	w := newWire(t)
	s := NewIntSlider("n", 0, 100, 10)
	out := NewOutput()
	s.OutputTo(out)
	var got []int
	s.OnChange(func(v int) { got = append(got, v); out.Print(fmt.Sprintf("n=%d\n", v)) })
	w.take()
	err := comm.Deliver(comm.Message{Type: comm.TypeMsg, CommID: s.ID(),
		Data: map[string]any{"method": "update", "state": map[string]any{"value": 42.0}, "buffer_paths": []any{}}})
	if err != nil {
		t.Fatal(err)
	}
	if s.Value() != 42 || !reflect.DeepEqual(got, []int{42}) {
		t.Fatalf("after the update: Value %d, callback saw %v; want 42, [42]", s.Value(), got)
	}
	msgs := w.take()
	if len(msgs) < 2 || msgs[0].CommID != s.ID() || msgs[0].Data["method"] != "echo_update" ||
		!reflect.DeepEqual(msgs[0].Data["state"], map[string]any{"value": 42.0}) {
		t.Fatalf("first message %+v, want echo_update of value 42 on the slider's comm", msgs)
	}
	last := msgs[len(msgs)-1]
	outs, _ := last.Data["state"].(map[string]any)["outputs"].([]any)
	if last.CommID != out.ID() || len(outs) != 1 || outs[0].(map[string]any)["text"] != "n=42\n" {
		t.Errorf("Output update %+v, want one stdout output n=42", last.Data)
	}
	// Out of range: echoed as sent, then corrected by an update.
	if err := comm.Deliver(comm.Message{Type: comm.TypeMsg, CommID: s.ID(),
		Data: map[string]any{"method": "update", "state": map[string]any{"value": 1000.0}, "buffer_paths": []any{}}}); err != nil {
		t.Fatal(err)
	}
	msgs = w.take()
	if s.Value() != 100 || msgs[0].Data["method"] != "echo_update" || msgs[1].Data["method"] != "update" ||
		msgs[1].Data["state"].(map[string]any)["value"] != 100.0 {
		t.Errorf("value 1000 on a 0..100 slider: Value %d, messages %+v; want 100, echo_update then update 100", s.Value(), msgs)
	}
}

// TestGoSetMovesThePage: a Set from Go sends one update with just that
// attribute and runs the observers; setting the same value sends nothing.
func TestGoSetMovesThePage(t *testing.T) {
	w := newWire(t)
	d := NewDropdown("memory", []string{"pageable", "pinned", "mapped"}, "pageable")
	var seen []string
	d.OutputTo(NewOutput())
	d.OnChange(func(v string) { seen = append(seen, v) })
	w.take()
	d.SetValue("mapped")
	msgs := w.take()
	if len(msgs) != 1 || msgs[0].Type != comm.TypeMsg || msgs[0].Data["method"] != "update" ||
		!reflect.DeepEqual(msgs[0].Data["state"], map[string]any{"index": 2.0}) {
		t.Fatalf("SetValue sent %+v, want one update {index: 2}", msgs)
	}
	if d.Value() != "mapped" || !reflect.DeepEqual(seen, []string{"mapped"}) {
		t.Errorf("Value %q, OnChange saw %v", d.Value(), seen)
	}
	d.SetValue("mapped")
	if msgs := w.take(); len(msgs) != 0 {
		t.Errorf("setting the same value sent %+v", msgs)
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), `"device"`) {
			t.Errorf("SetValue of a non-option: panic %v, want one naming it", r)
		}
	}()
	d.SetValue("device")
}

// TestBufferPaths: binary state goes out as buffers with their paths and
// comes in the same way.
func TestBufferPaths(t *testing.T) {
	st := map[string]any{"value": []byte{1, 2, 3}, "nested": map[string]any{"list": []any{1.0, []byte("ab")}}, "x": 1.0}
	out, paths, bufs := removeBuffers(st)
	wantPaths := []any{[]any{"nested", "list", 1}, []any{"value"}}
	if !reflect.DeepEqual(paths, wantPaths) || len(bufs) != 2 || !bytes.Equal(bufs[1], []byte{1, 2, 3}) {
		t.Fatalf("paths %v buffers %v", paths, bufs)
	}
	if _, has := out["value"]; has || out["nested"].(map[string]any)["list"].([]any)[1] != nil {
		t.Errorf("state after removal %v: value must be gone, the list slot null", out)
	}
	if _, ok := st["value"].([]byte); !ok {
		t.Error("removeBuffers changed its argument")
	}
	// Through JSON, as the front end sends it, and back.
	raw, _ := json.Marshal(map[string]any{"state": out, "buffer_paths": paths})
	var in map[string]any
	_ = json.Unmarshal(raw, &in)
	back := in["state"].(map[string]any)
	if err := insertBuffers(back, in["buffer_paths"], bufs); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(back["value"].([]byte), []byte{1, 2, 3}) || !bytes.Equal(back["nested"].(map[string]any)["list"].([]any)[1].([]byte), []byte("ab")) {
		t.Errorf("round trip gave %v", back)
	}
	if err := insertBuffers(map[string]any{}, []any{[]any{"a"}}, nil); err == nil {
		t.Error("a path without its buffer must fail")
	}

	// A model with a bytes attribute (Image) takes a front-end update with a buffer.
	w := newWire(t)
	img := newModel("ImageModel", nil)
	w.take()
	err := comm.Deliver(comm.Message{Type: comm.TypeMsg, CommID: img.ID(), Buffers: [][]byte{{0x89, 'P', 'N', 'G'}},
		Data: map[string]any{"method": "update", "state": map[string]any{}, "buffer_paths": []any{[]any{"value"}}}})
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := img.Get("value").([]byte); !bytes.Equal(b, []byte{0x89, 'P', 'N', 'G'}) {
		t.Errorf("Image value %v after a buffer update", img.Get("value"))
	}
	msgs := w.take()
	if len(msgs) == 0 || msgs[0].Data["method"] != "echo_update" || len(msgs[0].Buffers) != 1 ||
		!reflect.DeepEqual(msgs[0].Data["buffer_paths"], []any{[]any{"value"}}) {
		t.Errorf("echo of a buffer update %+v, want the buffer back with its path", msgs)
	}
}

// TestRequestStates answers both ways a front end asks for state:
// request_state on a widget's comm, request_states on the control comm.
func TestRequestStates(t *testing.T) {
	w := newWire(t)
	s := NewIntSlider("n", 0, 10, 7)
	w.take()
	if err := comm.Deliver(comm.Message{Type: comm.TypeMsg, CommID: s.ID(), Data: map[string]any{"method": "request_state"}}); err != nil {
		t.Fatal(err)
	}
	msgs := w.take()
	if len(msgs) != 1 || msgs[0].Data["method"] != "update" || msgs[0].Data["state"].(map[string]any)["value"] != 7.0 ||
		msgs[0].Data["state"].(map[string]any)["_model_name"] != "IntSliderModel" {
		t.Fatalf("request_state answered %+v", msgs)
	}
	if err := comm.Deliver(comm.Message{Type: comm.TypeOpen, CommID: "ctl", TargetName: ControlTarget}); err != nil {
		t.Fatal(err)
	}
	if err := comm.Deliver(comm.Message{Type: comm.TypeMsg, CommID: "ctl", Data: map[string]any{"method": "request_states"}}); err != nil {
		t.Fatal(err)
	}
	msgs = w.take()
	if len(msgs) != 1 || msgs[0].CommID != "ctl" || msgs[0].Data["method"] != "update_states" {
		t.Fatalf("request_states answered %+v", msgs)
	}
	states := msgs[0].Data["states"].(map[string]any)
	one, _ := states[s.ID()].(map[string]any)
	if len(states) != 3 || one["model_name"] != "IntSliderModel" || one["model_module"] != "@jupyter-widgets/controls" ||
		one["model_module_version"] != "2.0.0" || one["state"].(map[string]any)["value"] != 7.0 {
		t.Errorf("update_states %v: want the slider, its layout and style, the slider with value 7", states)
	}
	if info := comm.Info(Target); len(info) != 3 {
		t.Errorf("comm_info for jupyter.widget lists %d comms, want 3", len(info))
	}
	if err := comm.Deliver(comm.Message{Type: comm.TypeOpen, CommID: "x", TargetName: "nobody"}); err == nil ||
		w.take()[0].Type != comm.TypeClose {
		t.Errorf("comm_open to an unknown target: err %v; want an error and a comm_close", err)
	}
}

// TestCallbackErrorsShown: a panicking callback's error lands in the output
// area of the cell that registered it, and the kernel side goes on.
func TestCallbackErrorsShown(t *testing.T) {
	w := newWire(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, endCell := cellctx.Begin(ctx, cellctx.IO{Sink: w}) // registered during a cell
	b := NewButton("boom")
	b.OnClick(func() { panic("the card is not ready") })
	endCell()
	w.mu.Lock()
	shown := len(w.disp)
	w.mu.Unlock()
	if shown != 1 {
		t.Fatalf("registering a callback in a cell displayed %d outputs, want its output area", shown)
	}
	w.take()
	if err := comm.Deliver(comm.Message{Type: comm.TypeMsg, CommID: b.ID(),
		Data: map[string]any{"method": "custom", "content": map[string]any{"event": "click"}}}); err != nil {
		t.Fatal(err)
	}
	msgs := w.take()
	if len(msgs) != 1 {
		t.Fatalf("a click sent %d messages, want one Output update: %+v", len(msgs), msgs)
	}
	outs := msgs[0].Data["state"].(map[string]any)["outputs"].([]any)
	e := outs[0].(map[string]any)
	if e["output_type"] != "error" || !strings.Contains(e["evalue"].(string), "the card is not ready") ||
		!strings.Contains(e["evalue"].(string), `Button "boom"`) {
		t.Errorf("error output %v", e)
	}
}

// TestInteract re-runs the function on every change and replaces its output.
func TestInteract(t *testing.T) {
	w := newWire(t)
	calls := 0
	it := NewInteractive(func(n int, kind string, pinned bool) string {
		calls++
		fmt.Fprintln(&bytes.Buffer{}) // nothing printed to the cell
		return fmt.Sprintf("%d %s %v", n, kind, pinned)
	}, Arg("n", 4), Arg("kind", []string{"read", "write"}))
	if len(it.Controls) != 3 || calls != 1 {
		t.Fatalf("%d controls, %d calls; want 3 controls (the bool from its type) and one call", len(it.Controls), calls)
	}
	if got := it.Out.Outputs(); len(got) != 1 || got[0]["data"].(map[string]any)["text/plain"] != "4 read false" {
		t.Fatalf("first output %v", got)
	}
	w.take()
	if err := comm.Deliver(comm.Message{Type: comm.TypeMsg, CommID: it.Controls[1].Base().ID(),
		Data: map[string]any{"method": "update", "state": map[string]any{"index": 1.0}}}); err != nil {
		t.Fatal(err)
	}
	if got := it.Out.Outputs(); calls != 2 || len(got) != 1 || got[0]["data"].(map[string]any)["text/plain"] != "4 write false" {
		t.Errorf("after choosing write: %d calls, outputs %v; want one output 4 write false", calls, got)
	}
	if s := it.Controls[0].(*IntSlider); s.Get("min") != -4 || s.Get("max") != 12 || s.Get("description") != "n" {
		t.Errorf("slider from 4: %v", s.State())
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "parameter 1") {
			t.Errorf("a string control for an int parameter: panic %v", r)
		}
	}()
	NewInteractive(func(n int) {}, "text")
}

// TestViewAndStateSchemas checks a displayed widget's bundle against the
// published view schema, and a notebook widget state built from the comm
// messages against the state schema.
func TestViewAndStateSchemas(t *testing.T) {
	newWire(t)
	c := jsonschema.NewCompiler()
	view, err := c.Compile("schema/view.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	s := NewIntSlider("n", 0, 10, 1)
	b := display.BundleOf(s)
	if err := view.Validate(roundTrip(b[ViewMIME])); err != nil {
		t.Errorf("widget-view %v: %v", b[ViewMIME], err)
	}
	if b[display.MIMEText] != "IntSlider(value=1, description=n, min=0, max=10)" {
		t.Errorf("text/plain %q", b[display.MIMEText])
	}
	state, err := c.Compile("schema/state.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	doc := map[string]any{"version_major": 2, "version_minor": 0, "state": map[string]any{}}
	for id, m := range All() {
		doc["state"].(map[string]any)[id] = map[string]any{"model_name": m.ModelName(), "model_module": m.spec.Model.Module,
			"model_module_version": m.spec.Model.Version, "state": m.State()}
	}
	if err := state.Validate(roundTrip(doc)); err != nil {
		t.Errorf("widget state: %v", err)
	}
	if err := state.Validate(roundTrip(map[string]any{"version_major": 3, "version_minor": 0, "state": map[string]any{}})); err == nil {
		t.Error("the state schema accepts version 3: the check would catch nothing")
	}
}

func roundTrip(v any) any {
	raw, _ := json.Marshal(v)
	x, _ := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	return x
}

// TestStaticCopyFollows: an Output shown with Show has a display_id, and
// every change of it, from Go or in a callback, updates its static copy
// (text/html) and that of the boxes holding it, for readers without widgets.
func TestStaticCopyFollows(t *testing.T) {
	w := newWire(t)
	out := NewOutput()
	s := NewIntSlider("n", 0, 10, 1)
	box := NewVBox(s, out)
	s.OutputTo(out)
	s.OnChange(func(v int) { out.Replace(display.Bundle{display.MIMEHTML: fmt.Sprintf("<b>n is %d</b>", v)}) })
	Show(box, out)
	w.mu.Lock()
	shows := append([]display.Message{}, w.disp...)
	w.disp = nil
	w.mu.Unlock()
	if len(shows) != 2 || shows[0].DisplayID != "gocl-widget-"+box.ID() || shows[1].DisplayID != "gocl-widget-"+out.ID() {
		t.Fatalf("Show published %+v, want the box and the output with display ids", shows)
	}
	if _, ok := shows[1].Data[display.MIMEHTML]; ok {
		t.Error("an empty Output carries static HTML")
	}
	if err := comm.Deliver(comm.Message{Type: comm.TypeMsg, CommID: s.ID(),
		Data: map[string]any{"method": "update", "state": map[string]any{"value": 7.0}}}); err != nil {
		t.Fatal(err)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	ids := map[string]string{}
	for _, m := range w.disp {
		if m.Kind != display.KindUpdate {
			t.Errorf("a change published %v, want only updates", m.Kind)
		}
		h, _ := m.Data[display.MIMEHTML].(string)
		ids[m.DisplayID] = h
	}
	for _, id := range []string{out.ID(), box.ID()} {
		if h := ids["gocl-widget-"+id]; !strings.Contains(h, "<b>n is 7</b>") {
			t.Errorf("static copy of %s after the change: %q", id, h)
		}
	}
}

// TestBadFrontEndState: a state gocl cannot take is refused with an error
// naming it, the page is put back where the kernel is, and nothing changes.
func TestBadFrontEndState(t *testing.T) {
	w := newWire(t)
	s := NewIntSlider("n", 0, 10, 5)
	calls := 0
	s.OutputTo(NewOutput())
	s.OnChange(func(int) { calls++ })
	w.take()
	for _, bad := range []map[string]any{
		{"method": "update", "state": map[string]any{"value": "five"}},
		{"method": "update", "state": map[string]any{"value": 2.5}},
		{"method": "update", "state": map[string]any{"no_such_attribute": 1.0}},
		{"method": "update"},
		{"method": "frobnicate"},
		nil,
	} {
		err := comm.Deliver(comm.Message{Type: comm.TypeMsg, CommID: s.ID(), Data: bad})
		if err == nil {
			t.Errorf("%v was taken", bad)
		}
		if bad != nil && bad["state"] != nil {
			msgs := w.take()
			if last := msgs[len(msgs)-1]; last.Data["method"] != "update" || last.Data["state"].(map[string]any)["value"] != 5.0 {
				t.Errorf("after %v the page was not put back: %+v", bad, last)
			}
		}
	}
	if s.Value() != 5 || calls != 0 {
		t.Errorf("after bad states: value %d, %d callbacks", s.Value(), calls)
	}
}

// TestFrontEndHugeValues: numbers beyond a bounded widget's range are
// clamped to it, as ipywidgets does, never wrapped by a conversion to int;
// an unbounded int widget refuses a number no Go int holds.
func TestFrontEndHugeValues(t *testing.T) {
	w := newWire(t)
	send := func(m *Model, v any) error {
		return comm.Deliver(comm.Message{Type: comm.TypeMsg, CommID: m.ID(),
			Data: map[string]any{"method": "update", "state": map[string]any{"value": v}, "buffer_paths": []any{}}})
	}
	s := NewIntSlider("n", 0, 10, 5)
	for v, want := range map[float64]int{1e19: 10, 1e308: 10, -1e19: 0, -1e308: 0, 9.3e18: 10, 7: 7} {
		if err := send(s.Base(), v); err != nil || s.Value() != want {
			t.Errorf("IntSlider(0..10) sent %g: Value %d, err %v; want %d", v, s.Value(), err, want)
		}
	}
	f := NewFloatSlider("x", 0, 1, 0.5)
	if err := send(f.Base(), 1e308); err != nil || f.Value() != 1 {
		t.Errorf("FloatSlider(0..1) sent 1e308: Value %v, err %v", f.Value(), err)
	}
	lg := NewFloatLogSlider("size", 3, 9, 1e4)
	if err := send(lg.Base(), 1e308); err != nil || lg.Value() != 1e9 {
		t.Errorf("FloatLogSlider(1e3..1e9) sent 1e308: Value %v, err %v", lg.Value(), err)
	}
	p := NewPlay(0, 10, 1, 100)
	if err := send(p.Base(), 1e19); err != nil || p.Get("value") != 10 {
		t.Errorf("Play(0..10) sent 1e19: value %v, err %v", p.Get("value"), err)
	}
	for _, name := range []string{"IntProgressModel", "BoundedIntTextModel"} {
		m := NewModel(name, map[string]any{"min": 0, "max": 10, "value": 3})
		if err := send(m, 1e19); err != nil || m.Get("value") != 10 {
			t.Errorf("%s(0..10) sent 1e19: value %v, err %v", name, m.Get("value"), err)
		}
	}
	r := NewModel("IntRangeSliderModel", map[string]any{"min": 0, "max": 10, "value": []any{2, 5}})
	if err := send(r, []any{-1e19, 1e19}); err != nil || !reflect.DeepEqual(r.Get("value"), []any{0, 10}) {
		t.Errorf("IntRangeSlider(0..10) sent [-1e19, 1e19]: value %v, err %v", r.Get("value"), err)
	}
	fr := NewModel("FloatRangeSliderModel", map[string]any{"min": 0.0, "max": 1.0, "value": []any{0.2, 0.5}})
	if err := send(fr, []any{-1e308, 1e308}); err != nil || !reflect.DeepEqual(fr.Get("value"), []any{0.0, 1.0}) {
		t.Errorf("FloatRangeSlider(0..1) sent [-1e308, 1e308]: value %v, err %v", fr.Get("value"), err)
	}
	it := NewModel("IntTextModel", map[string]any{"value": 3})
	if err := send(it, 1e19); err == nil || it.Get("value") != 3 {
		t.Errorf("IntText sent 1e19: value %v, err %v; want it refused and 3 kept", it.Get("value"), err)
	}
	w.take()
}
