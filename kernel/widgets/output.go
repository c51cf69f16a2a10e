package widgets

import (
	"fmt"
	"sync"

	"github.com/seed43a1e1ab/gocl/kernel/display"
)

// Output is an area of outputs (prints, displays, errors) that lives in the
// widget state: Go code fills it, and every front end shows it, also long
// after the cell ran, and a saved notebook keeps it in its widget state. It
// is ipywidgets' Output widget (OutputModel of @jupyter-widgets/output
// 1.0.0), filled the way ipywidgets' append_stdout and append_display_data
// do: by setting its outputs attribute.
type Output struct {
	*Model

	omu       sync.Mutex // guards outputs and ids; held across a change
	outputs   []map[string]any
	ids       map[string][]int // display_id -> indexes in outputs
	clearNext bool
	area      bool // made by gocl as a cell's callback area
	dirty     bool // changed since the static copies were last updated
}

// NewOutput makes an empty Output area. Display it, then fill it with
// Capture, Show, Replace or Print; Clear empties it.
func NewOutput() *Output {
	o := &Output{Model: newModel("OutputModel", nil), ids: map[string][]int{}}
	o.self = o
	return o
}

// Capture runs f with everything it prints and displays going to o. A panic
// in f is shown in o as an error and does not go further.
func (o *Output) Capture(f func()) {
	c := &callback{what: "Output.Capture", area: o}
	c.run(f)
}

// Show appends v, displayed as display.Show would, to o.
func (o *Output) Show(v any) {
	o.Display(display.Message{Kind: display.KindShow, Data: display.BundleOf(v)})
	o.updateStatic()
}

// Replace replaces everything in o with v, in one update, so the page
// swaps the old picture for the new one without flicker: the way to redraw
// a card or a plot in place from a callback.
func (o *Output) Replace(v any) {
	o.omu.Lock()
	o.outputs = []map[string]any{displayOutput(display.BundleOf(v), nil)}
	o.ids = map[string][]int{}
	o.clearNext = false
	o.syncLocked()
	o.omu.Unlock()
	o.updateStatic()
}

// Print appends the text of a, as fmt.Print writes it, to o's stdout.
func (o *Output) Print(a ...any) { o.Stream("stdout", fmt.Sprint(a...)) }

// Clear empties o. With wait, o empties when its next output arrives,
// which avoids flicker in a callback that clears and redraws.
func (o *Output) Clear(wait bool) {
	o.omu.Lock()
	if wait {
		o.clearNext = true
		o.omu.Unlock()
		return
	}
	o.clearLocked()
	o.syncLocked()
	o.omu.Unlock()
	o.updateStatic()
}

// Outputs returns a copy of o's outputs, as nbformat output objects.
func (o *Output) Outputs() []map[string]any {
	o.omu.Lock()
	defer o.omu.Unlock()
	return copyOutputs(o.outputs)
}

func (o *Output) clearLocked() {
	o.outputs = nil
	o.ids = map[string][]int{}
	o.clearNext = false
}

// pendingClear runs a Clear(true) that waits for this output.
func (o *Output) pendingClear() {
	if o.clearNext {
		o.clearLocked()
	}
}

// Stream implements cellctx.Capturer: text printed to stdout or stderr,
// merged into the last output when it is the same stream.
func (o *Output) Stream(name, text string) {
	if text == "" {
		return
	}
	o.omu.Lock()
	defer o.omu.Unlock()
	o.pendingClear()
	if n := len(o.outputs); n > 0 && o.outputs[n-1]["output_type"] == "stream" && o.outputs[n-1]["name"] == name {
		last := copyMap(o.outputs[n-1])
		last["text"] = last["text"].(string) + text
		o.outputs[n-1] = last
	} else {
		o.outputs = append(o.outputs, map[string]any{"output_type": "stream", "name": name, "text": text})
	}
	o.syncLocked()
}

// Display implements cellctx.Capturer. An update of a display o never
// showed is not o's: it returns false, and the update goes on to the cell.
func (o *Output) Display(m display.Message) bool {
	o.omu.Lock()
	defer o.omu.Unlock()
	switch m.Kind {
	case display.KindClear:
		if m.Wait {
			o.clearNext = true
			return true
		}
		o.clearLocked()
	case display.KindUpdate:
		idx, ok := o.ids[m.DisplayID]
		if !ok {
			return false
		}
		for _, i := range idx {
			o.outputs[i] = displayOutput(m.Data, m.Metadata)
		}
	case display.KindShow:
		o.pendingClear()
		if m.DisplayID != "" {
			for _, i := range o.ids[m.DisplayID] {
				o.outputs[i] = displayOutput(m.Data, m.Metadata)
			}
			o.ids[m.DisplayID] = append(o.ids[m.DisplayID], len(o.outputs))
		}
		o.outputs = append(o.outputs, displayOutput(m.Data, m.Metadata))
	}
	o.syncLocked()
	return true
}

// appendError adds an error output, as a failed cell shows it.
func (o *Output) appendError(ename, evalue string, traceback []string) {
	tb := make([]any, len(traceback))
	for i, l := range traceback {
		tb[i] = l
	}
	o.omu.Lock()
	defer o.omu.Unlock()
	o.pendingClear()
	o.outputs = append(o.outputs, map[string]any{"output_type": "error", "ename": ename, "evalue": evalue, "traceback": tb})
	o.syncLocked()
}

// syncLocked sends the outputs to the front ends; o.omu is held, so that
// updates leave in the order they were made.
func (o *Output) syncLocked() {
	o.dirty = true
	list := make([]any, len(o.outputs))
	for i, out := range copyOutputs(o.outputs) {
		list[i] = out
	}
	if err := o.set("outputs", list, false); err != nil {
		panic(fmt.Sprintf("widgets: Output: %v", err))
	}
}

func displayOutput(b display.Bundle, md map[string]any) map[string]any {
	data := make(map[string]any, len(b))
	for k, v := range b {
		data[k] = v
	}
	if md == nil {
		md = map[string]any{}
	}
	return map[string]any{"output_type": "display_data", "data": data, "metadata": md}
}

func copyMap(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func copyOutputs(l []map[string]any) []map[string]any {
	out := make([]map[string]any, len(l))
	for i, m := range l {
		out[i] = copyMap(m)
	}
	return out
}

// updateStatic brings the copies of o that widgets.Show put in the cells'
// outputs up to date (update_display_data of their text/html), so that a
// saved notebook read without widgets (nbconvert, GitHub) shows what o shows
// now, not what it showed when displayed: o's own, and those of the boxes
// that hold it. o.omu must not be held.
func (o *Output) updateStatic() {
	o.omu.Lock()
	dirty := o.dirty
	o.dirty = false
	o.omu.Unlock()
	if !dirty {
		return
	}
	for _, m := range append([]*Model{o.Model}, holders(o.Model)...) {
		if m.shownStatic() {
			display.Publish(display.Message{Kind: display.KindUpdate, Data: m.MIMEBundle(), Metadata: map[string]any{},
				DisplayID: m.displayID()})
		}
	}
}

// holders returns the boxes that hold m, directly or not.
func holders(m *Model) []*Model {
	var out []*Model
	seen := map[*Model]bool{m: true}
	queue := []*Model{m}
	all := All()
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		for _, b := range all {
			if seen[b] {
				continue
			}
			b.mu.Lock()
			kids := append([]Widget(nil), b.children...)
			b.mu.Unlock()
			for _, k := range kids {
				if k.Base() == c {
					seen[b] = true
					out = append(out, b)
					queue = append(queue, b)
					break
				}
			}
		}
	}
	return out
}
