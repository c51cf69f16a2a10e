package nbrun

import (
	"encoding/base64"
	"sort"
	"sync"

	"github.com/seed43a1e1ab/gocl/kernel/comm"
)

// WidgetStateMIME is the key of a notebook's saved widget state in
// metadata.widgets.
const WidgetStateMIME = "application/vnd.jupyter.widget-state+json"

// widgetState follows the widgets' comm messages the way nbclient does
// (behind `jupyter nbconvert --execute`), so that the notebook gocl run
// writes keeps every widget's last state in metadata.widgets and its
// widget-view outputs still show the widgets when the notebook is opened.
type widgetState struct {
	mu     sync.Mutex
	models map[string]*savedModel
	order  []string
}

type savedModel struct {
	state   map[string]any
	buffers map[string]savedBuffer // path as a key -> buffer
}

type savedBuffer struct {
	path []any
	data []byte
}

func newWidgetState() *widgetState { return &widgetState{models: map[string]*savedModel{}} }

// comm records one kernel-side comm message.
func (w *widgetState) comm(m comm.Message) {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch m.Type {
	case comm.TypeOpen:
		if m.TargetName != "jupyter.widget" {
			return
		}
		st, _ := m.Data["state"].(map[string]any)
		sm := &savedModel{state: map[string]any{}, buffers: map[string]savedBuffer{}}
		if _, seen := w.models[m.CommID]; !seen {
			w.order = append(w.order, m.CommID)
		}
		w.models[m.CommID] = sm
		sm.merge(st, m.Data["buffer_paths"], m.Buffers)
	case comm.TypeMsg:
		sm := w.models[m.CommID]
		method, _ := m.Data["method"].(string)
		if sm == nil || method != "update" && method != "echo_update" {
			return
		}
		st, _ := m.Data["state"].(map[string]any)
		sm.merge(st, m.Data["buffer_paths"], m.Buffers)
	case comm.TypeClose:
		delete(w.models, m.CommID)
	}
}

func (sm *savedModel) merge(st map[string]any, paths any, buffers [][]byte) {
	for k, v := range st {
		sm.state[k] = plainJSON(v)
		for key, b := range sm.buffers { // a new value replaces its old buffers
			if len(b.path) > 0 && b.path[0] == k {
				delete(sm.buffers, key)
			}
		}
	}
	list, _ := paths.([]any)
	for i, p := range list {
		path, ok := p.([]any)
		if !ok || i >= len(buffers) || len(path) == 0 {
			continue
		}
		key := ""
		for _, x := range path {
			key += "/" + jsonKind(x) + ":" + toString(x)
		}
		sm.buffers[key] = savedBuffer{path: path, data: buffers[i]}
	}
}

func toString(v any) string {
	raw := plainJSON(v)
	if s, ok := raw.(string); ok {
		return s
	}
	return jsonKind(raw)
}

// metadata returns metadata.widgets as nbclient writes it, or nil when no
// widget is open.
func (w *widgetState) metadata() map[string]any {
	w.mu.Lock()
	defer w.mu.Unlock()
	state := map[string]any{}
	for _, id := range w.order {
		sm := w.models[id]
		if sm == nil {
			continue
		}
		name, _ := sm.state["_model_name"].(string)
		if name == "" {
			continue
		}
		entry := map[string]any{
			"model_name":           name,
			"model_module":         sm.state["_model_module"],
			"model_module_version": sm.state["_model_module_version"],
			"state":                sm.state,
		}
		if len(sm.buffers) > 0 {
			keys := make([]string, 0, len(sm.buffers))
			for k := range sm.buffers {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			var bufs []any
			for _, k := range keys {
				b := sm.buffers[k]
				bufs = append(bufs, map[string]any{"path": b.path, "data": base64.StdEncoding.EncodeToString(b.data),
					"encoding": "base64"})
			}
			entry["buffers"] = bufs
		}
		state[id] = entry
	}
	if len(state) == 0 {
		return nil
	}
	return map[string]any{WidgetStateMIME: map[string]any{"version_major": 2, "version_minor": 0, "state": state}}
}

// setWidgets stores the widget state in the notebook's metadata, or removes
// a stale one when the run made no widgets.
func (nb *notebook) setWidgets(w *widgetState) {
	md, ok := nb.root["metadata"].(map[string]any)
	if !ok {
		md = map[string]any{}
		nb.root["metadata"] = md
	}
	if st := w.metadata(); st != nil {
		md["widgets"] = st
		return
	}
	delete(md, "widgets")
}

// Comm implements cellio.CommSink: the widgets' state is kept for the
// notebook's metadata, even after the cell ended (widgets outlive cells).
func (s *termSink) Comm(m comm.Message) {
	s.outs.widgets.comm(m)
}
