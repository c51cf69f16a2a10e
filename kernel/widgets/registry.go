package widgets

import (
	"fmt"
	"sort"
	"sync"

	"github.com/seed43a1e1ab/gocl/kernel/comm"
)

// ControlTarget is the comm target through which ipywidgets 8 front ends
// fetch every widget's state in one message (request_states).
const ControlTarget = "jupyter.widget.control"

var (
	regMu  sync.Mutex
	models = map[string]*Model{}
)

func init() {
	comm.RegisterTarget(ControlTarget, openControl)
	comm.OnReset(func() {
		regMu.Lock()
		models = map[string]*Model{}
		regMu.Unlock()
		resetAreas()
	})
}

func register(m *Model) {
	regMu.Lock()
	models[m.id] = m
	regMu.Unlock()
}

func unregister(m *Model) {
	regMu.Lock()
	delete(models, m.id)
	regMu.Unlock()
}

// All returns every open widget model, by id.
func All() map[string]*Model {
	regMu.Lock()
	defer regMu.Unlock()
	out := make(map[string]*Model, len(models))
	for id, m := range models {
		out[id] = m
	}
	return out
}

// controlComm answers request_states on the jupyter.widget.control comm.
type controlComm struct{ id string }

func openControl(m comm.Message) (comm.Handler, error) { return &controlComm{id: m.CommID}, nil }

func (c *controlComm) Msg(m comm.Message) error {
	method, _ := m.Data["method"].(string)
	if method != "request_states" {
		return fmt.Errorf("%s comm: unknown method %q (gocl answers request_states)", ControlTarget, method)
	}
	states := map[string]any{}
	all := All()
	ids := make([]string, 0, len(all))
	for id := range all {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		w := all[id]
		states[id] = map[string]any{
			"model_name":           w.spec.Model.Name,
			"model_module":         w.spec.Model.Module,
			"model_module_version": w.spec.Model.Version,
			"state":                w.snapshot(),
		}
	}
	st, paths, buffers := removeBuffers(states)
	return comm.Send(c.id, map[string]any{"method": "update_states", "states": st, "buffer_paths": paths}, nil, buffers)
}

func (c *controlComm) Closed(comm.Message) {}

// removeBuffers takes the binary values ([]byte) out of st, as the widget
// protocol sends them: each one's path (keys and list indexes from the top)
// goes to paths and its bytes to buffers; in a list its place holds null, in
// an object its key is removed. st itself is not changed.
func removeBuffers(st map[string]any) (state map[string]any, paths []any, buffers [][]byte) {
	paths = []any{}
	out := walkRemove(st, nil, &paths, &buffers)
	return out.(map[string]any), paths, buffers
}

func walkRemove(v any, path []any, paths *[]any, buffers *[][]byte) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if b, ok := x[k].([]byte); ok {
				*paths = append(*paths, append(append([]any{}, path...), k))
				*buffers = append(*buffers, b)
				continue
			}
			out[k] = walkRemove(x[k], append(append([]any{}, path...), k), paths, buffers)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			if b, ok := e.([]byte); ok {
				*paths = append(*paths, append(append([]any{}, path...), i))
				*buffers = append(*buffers, b)
				out[i] = nil
				continue
			}
			out[i] = walkRemove(e, append(append([]any{}, path...), i), paths, buffers)
		}
		return out
	}
	return v
}

// insertBuffers puts buffers back into st at paths (a JSON list of lists of
// keys and indexes), as []byte values.
func insertBuffers(st map[string]any, paths any, buffers [][]byte) error {
	if paths == nil {
		if len(buffers) > 0 {
			return fmt.Errorf("%d binary buffers came without buffer_paths", len(buffers))
		}
		return nil
	}
	list, ok := paths.([]any)
	if !ok {
		return fmt.Errorf("buffer_paths is a %T, not a list", paths)
	}
	if len(list) != len(buffers) {
		return fmt.Errorf("buffer_paths names %d buffers but %d came", len(list), len(buffers))
	}
	for i, p := range list {
		path, ok := p.([]any)
		if !ok || len(path) == 0 {
			return fmt.Errorf("buffer_paths[%d] is not a non-empty list", i)
		}
		var cur any = st
		for j, key := range path {
			last := j == len(path)-1
			switch c := cur.(type) {
			case map[string]any:
				k, ok := key.(string)
				if !ok {
					return fmt.Errorf("buffer_paths[%d][%d]: want an object key, got %v", i, j, key)
				}
				if last {
					c[k] = buffers[i]
				} else {
					cur = c[k]
				}
			case []any:
				f, ok := key.(float64)
				if !ok || int(f) < 0 || int(f) >= len(c) {
					return fmt.Errorf("buffer_paths[%d][%d]: index %v out of the list's range", i, j, key)
				}
				if last {
					c[int(f)] = buffers[i]
				} else {
					cur = c[int(f)]
				}
			default:
				return fmt.Errorf("buffer_paths[%d] leads into a %T", i, cur)
			}
		}
	}
	return nil
}
