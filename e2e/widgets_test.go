package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"

	"github.com/seed43a1e1ab/gocl/kernel/wire"
)

const viewMIME = "application/vnd.jupyter.widget-view+json"

// commSend sends a comm message on shell as a widget front end does, with
// optional binary buffers, and waits for its idle status; it returns the
// IOPub messages it caused.
func (k *kernel) commSend(msgType string, content map[string]any, buffers ...[]byte) []*wire.Message {
	k.t.Helper()
	m, err := wire.NewMessage(msgType, k.session, nil, content)
	if err != nil {
		k.t.Fatal(err)
	}
	m.Buffers = buffers
	frames, err := k.signer.Encode(m)
	if err != nil {
		k.t.Fatal(err)
	}
	if err := k.shell.Send(zmq4.NewMsgFrom(frames...)); err != nil {
		k.t.Fatal(err)
	}
	if !k.waitIdle(m.Header.MsgID, 30*time.Second) {
		k.t.Fatalf("no idle after %s\n%s", msgType, k.stderr.String())
	}
	if st := k.statuses(m.Header.MsgID); len(st) != 2 || st[0] != "busy" {
		k.t.Errorf("%s: statuses %v, want busy then idle", msgType, st)
	}
	return k.outputs(m.Header.MsgID)
}

// comms decodes the comm messages among outs: comm id -> data, in order.
func comms(t *testing.T, outs []*wire.Message, typ string) []map[string]any {
	var r []map[string]any
	for _, m := range ofType(outs, typ) {
		c := decode(t, m)
		c["metadata"] = m.Metadata
		r = append(r, c)
	}
	return r
}

func viewIDs(t *testing.T, outs []*wire.Message, typ string) []string {
	var ids []string
	for _, m := range ofType(outs, typ) {
		data := decode(t, m)["data"].(map[string]any)
		if v, ok := data[viewMIME].(map[string]any); ok {
			ids = append(ids, v["model_id"].(string))
		}
	}
	return ids
}

// outputsText is the stdout text of the last outputs update of the Output
// widget id among outs.
func outputsText(t *testing.T, outs []*wire.Message, id string) (text string, errs []string, found bool) {
	for _, c := range comms(t, outs, "comm_msg") {
		data := c["data"].(map[string]any)
		st, _ := data["state"].(map[string]any)
		list, ok := st["outputs"].([]any)
		if c["comm_id"] != id || !ok {
			continue
		}
		text, errs, found = "", nil, true
		for _, o := range list {
			o := o.(map[string]any)
			switch o["output_type"] {
			case "stream":
				text += o["text"].(string)
			case "error":
				errs = append(errs, o["evalue"].(string))
			case "display_data":
				text += o["data"].(map[string]any)["text/plain"].(string)
			}
		}
	}
	return text, errs, found
}

// TestWidgetsOverZMQ drives ipywidgets through the real binary over zmq,
// as a front end: comm_open with state and protocol version, a dragged
// slider (echo_update, then the Go callback's output in its Output), a
// drop-down chosen, a value set from Go arriving as an update, a binary
// buffer, and a looping callback interrupted with every variable kept.
func TestWidgetsOverZMQ(t *testing.T) {
	k := startKernel(t)
	reply, outs := k.execute(`
size := widgets.NewFloatLogSlider("size", 3, 9, 1<<20)
mem := widgets.NewDropdown("memory", []string{"pageable", "pinned", "mapped"}, "pageable")
card := widgets.NewOutput()
size.OutputTo(card)
mem.OutputTo(card)
runs := 0
redo := func() {
	runs++
	card.Replace(fmt.Sprintf("copy %.0f bytes from %s memory", size.Value(), mem.Value()))
}
size.OnChange(func(float64) { redo() })
mem.OnChange(func(string) { redo() })
redo()
widgets.Show(widgets.NewVBox(size, mem), card)
`, nil)
	if reply["status"] != "ok" {
		t.Fatalf("cell failed: %v", reply)
	}
	opens := map[string]map[string]any{}
	for _, c := range comms(t, outs, "comm_open") {
		if c["target_name"] != "jupyter.widget" || c["metadata"].(map[string]any)["version"] != "2.1.0" {
			t.Errorf("comm_open %v: want target jupyter.widget and metadata.version 2.1.0", c)
		}
		opens[c["comm_id"].(string)] = c["data"].(map[string]any)["state"].(map[string]any)
	}
	views := viewIDs(t, outs, "display_data")
	if len(views) != 2 || opens[views[0]]["_model_name"] != "VBoxModel" || opens[views[1]]["_model_name"] != "OutputModel" {
		t.Fatalf("displayed %v, want the VBox and the Output", views)
	}
	box := opens[views[0]]["children"].([]any)
	sizeID := strings.TrimPrefix(box[0].(string), "IPY_MODEL_")
	memID := strings.TrimPrefix(box[1].(string), "IPY_MODEL_")
	if opens[sizeID]["_model_name"] != "FloatLogSliderModel" || opens[sizeID]["value"] != float64(1<<20) ||
		opens[sizeID]["min"] != 3.0 || opens[memID]["_model_module_version"] != "2.0.0" {
		t.Fatalf("slider state %v, dropdown state %v", opens[sizeID], opens[memID])
	}

	// The user drags the slider.
	got := k.commSend("comm_msg", map[string]any{"comm_id": sizeID,
		"data": map[string]any{"method": "update", "state": map[string]any{"value": 4096}, "buffer_paths": []any{}}})
	cm := comms(t, got, "comm_msg")
	if len(cm) == 0 || cm[0]["comm_id"] != sizeID || cm[0]["data"].(map[string]any)["method"] != "echo_update" {
		t.Fatalf("first message after the drag %v, want the echo_update", cm)
	}
	if text, errs, _ := outputsText(t, got, views[1]); text != "copy 4096 bytes from pageable memory" || errs != nil {
		t.Errorf("card after the drag %q %v", text, errs)
	}
	// The user picks pinned memory.
	got = k.commSend("comm_msg", map[string]any{"comm_id": memID,
		"data": map[string]any{"method": "update", "state": map[string]any{"index": 1}, "buffer_paths": []any{}}})
	if text, _, _ := outputsText(t, got, views[1]); text != "copy 4096 bytes from pinned memory" {
		t.Errorf("card after choosing pinned %q", text)
	}
	// Go moves the slider: the page gets an update, and the card follows.
	_, outs = k.execute(`size.SetValue(1 << 16); runs`, nil)
	var moved bool
	for _, c := range comms(t, outs, "comm_msg") {
		st, _ := c["data"].(map[string]any)["state"].(map[string]any)
		if c["comm_id"] == sizeID && c["data"].(map[string]any)["method"] == "update" && st["value"] == float64(1<<16) {
			moved = true
		}
	}
	if text, _, _ := outputsText(t, outs, views[1]); !moved || text != "copy 65536 bytes from pinned memory" {
		t.Errorf("SetValue: update sent %v, card %q", moved, text)
	}
	if r := ofType(outs, "execute_result"); len(r) != 1 || decode(t, r[0])["data"].(map[string]any)["text/plain"] != "4" {
		t.Errorf("runs after three changes and the first draw: %v", r)
	}

	// Binary state both ways: an Image's value as a buffer.
	_, outs = k.execute(`img := widgets.NewModel("ImageModel", map[string]any{"format": "png"}); img.ID()`, nil)
	imgID := strings.Trim(decode(t, ofType(outs, "execute_result")[0])["data"].(map[string]any)["text/plain"].(string), `"`)
	got = k.commSend("comm_msg", map[string]any{"comm_id": imgID,
		"data": map[string]any{"method": "update", "state": map[string]any{}, "buffer_paths": []any{[]any{"value"}}}},
		[]byte("\x89PNG..."))
	echo := ofType(got, "comm_msg")
	if len(echo) != 1 || len(echo[0].Buffers) != 1 || string(echo[0].Buffers[0]) != "\x89PNG..." {
		t.Errorf("echo of a binary update: %d messages, want one with the buffer", len(echo))
	}
	_, outs = k.execute(`string(img.Get("value").([]byte))`, nil)
	if r := ofType(outs, "execute_result"); len(r) != 1 || !strings.Contains(decode(t, r[0])["data"].(map[string]any)["text/plain"].(string), "PNG...") {
		t.Errorf("the Go side of the buffer: %v", r)
	}

	// A callback that never returns is interrupted like a cell.
	reply, _ = k.execute(`
spin := widgets.NewButton("spin")
spin.OutputTo(card)
spin.OnClick(func() { for {} })
spin.ID()`, nil)
	if reply["status"] != "ok" {
		t.Fatal(reply)
	}
	_, outs = k.execute(`spin.ID()`, nil)
	spinID := strings.Trim(decode(t, ofType(outs, "execute_result")[0])["data"].(map[string]any)["text/plain"].(string), `"`)
	click, err := wire.NewMessage("comm_msg", k.session, nil, map[string]any{"comm_id": spinID,
		"data": map[string]any{"method": "custom", "content": map[string]any{"event": "click"}}})
	if err != nil {
		t.Fatal(err)
	}
	frames, _ := k.signer.Encode(click)
	if err := k.shell.Send(zmq4.NewMsgFrom(frames...)); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	k.request(k.control, "interrupt_request", map[string]any{}, 10*time.Second, false)
	if !k.waitIdle(click.Header.MsgID, 10*time.Second) {
		t.Fatalf("the looping callback did not stop at the interrupt\n%s", k.stderr.String())
	}
	_, outs = k.execute(`runs`, nil)
	if r := ofType(outs, "execute_result"); len(r) != 1 || decode(t, r[0])["data"].(map[string]any)["text/plain"] != "4" {
		t.Errorf("after the interrupt, runs is %v", r)
	}
}
