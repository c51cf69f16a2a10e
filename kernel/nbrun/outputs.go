package nbrun

import (
	"regexp"
	"strings"

	"github.com/seed43a1e1ab/gocl/kernel/cellio"
)

// outputs turns what cells emit into nbformat outputs the way nbclient
// (behind `jupyter nbconvert --execute`) does, so both tools store the same
// notebook: one output per message, update_display_data rewriting every
// earlier output with the same display_id in any cell, clear_output(wait)
// deferred to the cell's next output; consecutive streams are merged when
// the notebook is written (coalesceStreams).
type outputs struct {
	cells     []map[string]any
	displayID map[string]map[int][]int // display_id -> cell index -> output indexes
	cell      int                      // index of the running cell
	clearNext bool                     // a clear_output(wait=True) is pending
	widgets   *widgetState             // the widgets' state, for metadata.widgets
}

func newOutputs(cells []map[string]any) *outputs {
	return &outputs{cells: cells, displayID: map[string]map[int][]int{}, widgets: newWidgetState()}
}

// start begins cell i: its outputs are emptied, as nbclient does.
func (o *outputs) start(i int) {
	o.cell = i
	o.clearNext = false
	o.cells[i]["outputs"] = []any{}
}

func (o *outputs) list() []any {
	l, _ := o.cells[o.cell]["outputs"].([]any)
	return l
}

// add appends out to the running cell, first executing a pending clear and
// recording the output's display_id, if any.
func (o *outputs) add(out map[string]any, displayID string) {
	if o.clearNext {
		o.clear()
		o.clearNext = false
	}
	l := o.list()
	if displayID != "" {
		m := o.displayID[displayID]
		if m == nil {
			m = map[int][]int{}
			o.displayID[displayID] = m
		}
		m[o.cell] = append(m[o.cell], len(l))
	}
	o.cells[o.cell]["outputs"] = append(l, out)
}

// clear empties the running cell's outputs now.
func (o *outputs) clear() {
	o.cells[o.cell]["outputs"] = []any{}
	for _, m := range o.displayID {
		delete(m, o.cell)
	}
}

// stream records text written to stdout or stderr.
func (o *outputs) stream(name, text string) {
	o.add(map[string]any{"output_type": "stream", "name": name, "text": text}, "")
}

// display records a display message.
func (o *outputs) display(m cellio.Message) {
	switch m.Kind {
	case cellio.KindClear:
		if m.Wait {
			o.clearNext = true
		} else {
			o.clear()
		}
	case cellio.KindUpdate:
		o.update(m.DisplayID, m.Data, m.Metadata)
	case cellio.KindShow:
		if m.DisplayID != "" {
			o.update(m.DisplayID, m.Data, m.Metadata)
		}
		o.add(map[string]any{
			"output_type": "display_data",
			"data":        bundle(m.Data),
			"metadata":    metadata(m.Metadata),
		}, m.DisplayID)
	}
}

// update replaces data and metadata of every output carrying id; an unknown
// id is ignored, as Jupyter does.
func (o *outputs) update(id string, data cellio.Bundle, md map[string]any) {
	if id == "" {
		return
	}
	for ci, idxs := range o.displayID[id] {
		l, _ := o.cells[ci]["outputs"].([]any)
		for _, i := range idxs {
			if i < len(l) {
				out := l[i].(map[string]any)
				out["data"] = bundle(data)
				out["metadata"] = metadata(md)
			}
		}
	}
}

// result records the cell's execute_result.
func (o *outputs) result(count int, data cellio.Bundle, md map[string]any) {
	o.add(map[string]any{
		"output_type":     "execute_result",
		"execution_count": count,
		"data":            bundle(data),
		"metadata":        metadata(md),
	}, "")
}

// fail records an error output.
func (o *outputs) fail(ename, evalue string, traceback []string) {
	tb := make([]any, len(traceback))
	for i, l := range traceback {
		tb[i] = l
	}
	o.add(map[string]any{
		"output_type": "error",
		"ename":       ename,
		"evalue":      evalue,
		"traceback":   tb,
	}, "")
}

// bundle copies a MIME bundle into plain JSON values.
func bundle(b cellio.Bundle) map[string]any {
	out := make(map[string]any, len(b))
	for k, v := range b {
		out[k] = plainJSON(v)
	}
	return out
}

func metadata(md map[string]any) map[string]any {
	if md == nil {
		return map[string]any{}
	}
	out := plainJSON(md)
	if m, ok := out.(map[string]any); ok {
		return m
	}
	return map[string]any{}
}

// crPattern is nbconvert's coalesce_streams pattern: text on a line before a
// carriage return that is not the end of the line was overwritten.
var crPattern = regexp.MustCompile(`[^\n]*\r([^\n])`)

// coalesceStreams merges consecutive stream outputs of the same name and
// drops text overwritten by a carriage return, as nbconvert's
// coalesce_streams preprocessor does after executing a notebook. Each run
// of streams is joined once, so the cost is linear in the text: a cell that
// prints 100 MB in 4 KiB writes must not copy the text per write.
func coalesceStreams(cell map[string]any) {
	l, _ := cell["outputs"].([]any)
	if len(l) == 0 {
		return
	}
	merged := make([]any, 0, len(l))
	for i := 0; i < len(l); {
		first, _ := l[i].(map[string]any)
		j := i + 1
		if isStream(first) {
			for j < len(l) {
				next, _ := l[j].(map[string]any)
				if !isStream(next) || next["name"] != first["name"] {
					break
				}
				j++
			}
		}
		if j-i > 1 {
			first["text"] = joinTexts(l[i:j])
		}
		merged = append(merged, l[i])
		i = j
	}
	for _, x := range merged {
		out, _ := x.(map[string]any)
		if !isStream(out) {
			continue
		}
		if s, err := multiline(out["text"], "text"); err == nil && strings.Contains(s, "\r") {
			out["text"] = crPattern.ReplaceAllString(s, "$1")
		}
	}
	cell["outputs"] = merged
}

func isStream(out map[string]any) bool { return out != nil && out["output_type"] == "stream" }

// joinTexts concatenates the texts of the stream outputs l, copying each
// byte once.
func joinTexts(l []any) string {
	texts := make([]string, len(l))
	n := 0
	for i, x := range l {
		texts[i], _ = multiline(x.(map[string]any)["text"], "text")
		n += len(texts[i])
	}
	var b strings.Builder
	b.Grow(n)
	for _, t := range texts {
		b.WriteString(t)
	}
	return b.String()
}
