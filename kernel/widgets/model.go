package widgets

import (
	"fmt"
	"os"
	"reflect"
	"sort"
	"strings"
	"sync"

	"github.com/seed43a1e1ab/gocl/kernel/comm"
	"github.com/seed43a1e1ab/gocl/kernel/display"
)

// Widget is anything this package makes: a control, a box, an Output.
type Widget interface {
	// Base returns the widget's model: its state, as synchronized with the
	// front end.
	Base() *Model
}

// Target is the comm target of widget models.
const Target = "jupyter.widget"

// ViewMIME is the MIME type of a displayed widget.
const ViewMIME = "application/vnd.jupyter.widget-view+json"

// Model is one widget model: its state, kept in sync with every front end
// over a comm. Every widget embeds one, so its methods apply to all widgets.
type Model struct {
	id   string
	spec *modelSpec

	mu       sync.Mutex
	state    map[string]any
	closed   bool
	observe  map[string][]func(old, new any)
	onCustom []func(content map[string]any, buffers [][]byte)
	validate func(name string, v any) (any, error) // the widget's own rules, e.g. a slider's range
	out      *Output                               // where callbacks' output goes; nil: the owner cell's area
	children []Widget
	layout   *Model
	style    *Model
	shown    bool // displayed by Show, with displayID

	self Widget // the typed widget that embeds this model, for Interact and text/plain
}

// Base returns m itself: a *Model is a Widget.
func (m *Model) Base() *Model { return m }

// ID returns the model id, which is the comm id.
func (m *Model) ID() string { return m.id }

// ModelName returns the model's name, e.g. "IntSliderModel".
func (m *Model) ModelName() string { return m.spec.Model.Name }

// echoOn reports whether echo_update messages are sent; ipywidgets 8's
// JUPYTER_WIDGETS_ECHO switch, on unless set to something false.
func echoOn() bool {
	switch strings.ToLower(os.Getenv("JUPYTER_WIDGETS_ECHO")) {
	case "0", "false", "no", "off":
		return false
	}
	return true
}

// newModel makes the model named name with its specification's defaults,
// then set (name -> value) on top, and opens its comm. References to new
// instances (layout, style) are made first, as the front end resolves them
// when it opens this one.
func newModel(name string, set map[string]any) *Model {
	spec := specFor(name)
	m := &Model{id: comm.NewID(), spec: spec, state: map[string]any{}, observe: map[string][]func(old, new any){}}
	for _, a := range spec.Attributes {
		if a.types[0] == "reference" && a.Default == newInstance {
			child := newModel(a.Widget+"Model", nil)
			m.state[a.Name] = ref(child)
			switch a.Name {
			case "layout":
				m.layout = child
			case "style":
				m.style = child
			}
			continue
		}
		m.state[a.Name] = plainDefault(a)
	}
	for k, v := range set {
		a := spec.byName[k]
		if a == nil {
			panic(fmt.Sprintf("widgets: %s has no attribute %q", name, k))
		}
		n, err := a.normalize(v)
		if err != nil {
			panic(fmt.Sprintf("widgets: %s: %v", name, err))
		}
		m.state[k] = n
	}
	m.self = m
	register(m)
	state, paths, buffers := removeBuffers(m.snapshot())
	comm.Open(m.id, Target, map[string]any{"state": state, "buffer_paths": paths},
		map[string]any{"version": ProtocolVersion}, buffers, &handler{m})
	return m
}

// plainDefault is an attribute's default as the state holds it.
func plainDefault(a *attrSpec) any {
	switch d := a.Default.(type) {
	case nil:
		return nil
	case float64:
		if a.types[0] == "int" {
			return int(d)
		}
		return d
	case []any:
		return append([]any{}, d...)
	case map[string]any:
		out := map[string]any{}
		for k, v := range d {
			out[k] = v
		}
		return out
	case string:
		if a.types[0] == "bytes" {
			return []byte{}
		}
		return d
	}
	return a.Default
}

// snapshot copies the state.
func (m *Model) snapshot() map[string]any {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make(map[string]any, len(m.state))
	for k, v := range m.state {
		out[k] = v
	}
	return out
}

// State returns a copy of the whole state, as the front end holds it
// (references as "IPY_MODEL_<id>" strings).
func (m *Model) State() map[string]any { return m.snapshot() }

// Get returns the value of attribute name; it panics when the model has no
// such attribute.
func (m *Model) Get(name string) any {
	m.attr(name)
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.state[name]
}

func (m *Model) attr(name string) *attrSpec {
	a := m.spec.byName[name]
	if a == nil {
		panic(fmt.Sprintf("widgets: %s has no attribute %q (it has %s)", m.spec.Model.Name, name,
			strings.Join(m.spec.attrNames(), ", ")))
	}
	return a
}

// Set sets attribute name to v from Go: the front ends receive an update and
// the attribute's observers run. v must fit the attribute's type in the
// widget specification; otherwise Set panics with what was expected.
func (m *Model) Set(name string, v any) {
	if err := m.set(name, v, false); err != nil {
		panic(fmt.Sprintf("widgets: %s.Set(%q): %v", strings.TrimSuffix(m.spec.Model.Name, "Model"), name, err))
	}
}

// SetAttrs sets several attributes at once, in one update message.
func (m *Model) SetAttrs(attrs map[string]any) {
	names := make([]string, 0, len(attrs))
	for k := range attrs {
		names = append(names, k)
	}
	sort.Strings(names)
	changed := map[string][2]any{}
	for _, k := range names {
		old, n, ch, err := m.store(k, attrs[k])
		if err != nil {
			panic(fmt.Sprintf("widgets: %s.SetAttrs: %v", strings.TrimSuffix(m.spec.Model.Name, "Model"), err))
		}
		if ch {
			changed[k] = [2]any{old, n}
		}
	}
	if len(changed) == 0 {
		return
	}
	st := map[string]any{}
	for k, c := range changed {
		st[k] = c[1]
	}
	m.sendState("update", st)
	for _, k := range names {
		if c, ok := changed[k]; ok {
			m.notify(k, c[0], c[1])
		}
	}
}

// store validates and stores one attribute; changed is false when the value
// stayed the same.
func (m *Model) store(name string, v any) (old, n any, changed bool, err error) {
	a := m.spec.byName[name]
	if a == nil {
		return nil, nil, false, fmt.Errorf("no attribute %q", name)
	}
	n, err = a.normalize(m.clampToBounds(name, v))
	if err != nil {
		return nil, nil, false, err
	}
	if m.validate != nil {
		if n, err = m.validate(name, n); err != nil {
			return nil, nil, false, err
		}
	}
	m.mu.Lock()
	old = m.state[name]
	if m.closed {
		m.mu.Unlock()
		return old, n, false, fmt.Errorf("the widget was closed")
	}
	changed = !reflect.DeepEqual(old, n)
	m.state[name] = n
	m.mu.Unlock()
	return old, n, changed, nil
}

// set stores one attribute; unless it came from the front end and was kept
// as sent, the front ends get an update; observers run when it changed.
func (m *Model) set(name string, v any, fromFrontEnd bool) error {
	old, n, changed, err := m.store(name, v)
	if err != nil {
		return err
	}
	if !fromFrontEnd && changed || fromFrontEnd && !reflect.DeepEqual(normalizedOrSelf(m, name, v), n) {
		// From Go; or from the front end but changed by validation
		// (clamped to the range), which the page must be told.
		m.sendState("update", map[string]any{name: n})
	}
	if changed {
		m.notify(name, old, n)
	}
	return nil
}

func normalizedOrSelf(m *Model, name string, v any) any {
	if n, err := m.spec.byName[name].normalize(v); err == nil {
		return n
	}
	return v
}

// sendState publishes a state message (method "update" or "echo_update").
func (m *Model) sendState(method string, st map[string]any) {
	state, paths, buffers := removeBuffers(st)
	_ = comm.Send(m.id, map[string]any{"method": method, "state": state, "buffer_paths": paths}, nil, buffers)
}

// Observe calls f(old, new) after attribute name changes, from Go or from
// the page. It runs as a widget callback: see OnChange of the controls.
func (m *Model) Observe(name string, f func(old, new any)) {
	m.attr(name)
	m.mu.Lock()
	m.observe[name] = append(m.observe[name], callbackIn(m, f))
	m.mu.Unlock()
}

// observeRaw adds an observer without a callback wrapper (for widgets that
// wrap it themselves).
func (m *Model) observeRaw(name string, f func(old, new any)) {
	m.mu.Lock()
	m.observe[name] = append(m.observe[name], f)
	m.mu.Unlock()
}

func (m *Model) notify(name string, old, n any) {
	m.mu.Lock()
	fs := append([]func(old, new any){}, m.observe[name]...)
	m.mu.Unlock()
	for _, f := range fs {
		f(old, n)
	}
}

// OnCustom calls f for every custom message the front end sends (a
// Button's click is one, handled by OnClick).
func (m *Model) OnCustom(f func(content map[string]any, buffers [][]byte)) {
	m.mu.Lock()
	m.onCustom = append(m.onCustom, f)
	m.mu.Unlock()
}

// Send sends a custom message to the widget's front-end views.
func (m *Model) Send(content map[string]any, buffers [][]byte) {
	_ = comm.Send(m.id, map[string]any{"method": "custom", "content": content}, nil, buffers)
}

// OutputTo makes out receive what this widget's callbacks print and display
// (and their errors). Without it, they go to an output area in the cell that
// registered the callback.
func (m *Model) OutputTo(out *Output) {
	m.mu.Lock()
	m.out = out
	m.mu.Unlock()
}

// Layout returns the widget's layout model, whose attributes are CSS
// properties: w.Layout().Set("width", "400px"). Nil for models without one.
func (m *Model) Layout() *Model { return m.layout }

// Style returns the widget's style model (description_width, handle_color,
// button_color, ...), or nil.
func (m *Model) Style() *Model { return m.style }

// Close closes the widget's comm: its views disappear from the page.
func (m *Model) Close() {
	comm.Close(m.id, nil)
}

// Closed reports whether the widget's comm is closed.
func (m *Model) Closed() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.closed
}

// MIMEBundle is how the display package shows a widget: the widget-view
// MIME type with the model id, and text/plain.
func (m *Model) MIMEBundle() display.Bundle {
	b := display.Bundle{
		ViewMIME:         map[string]any{"model_id": m.id, "version_major": 2, "version_minor": 0},
		display.MIMEText: m.String(),
	}
	if h := staticHTML(m.self); h != "" {
		b[display.MIMEHTML] = h
	}
	return b
}

// String describes the widget as ipywidgets' repr does.
func (m *Model) String() string {
	st := m.snapshot()
	var parts []string
	for _, k := range []string{"value", "description", "min", "max", "index", "_options_labels"} {
		if v, ok := st[k]; ok && v != nil && !(k == "description" && v == "") {
			parts = append(parts, fmt.Sprintf("%s=%v", k, v))
		}
	}
	return strings.TrimSuffix(m.spec.Model.Name, "Model") + "(" + strings.Join(parts, ", ") + ")"
}

// handler is a model's comm handler.
type handler struct{ m *Model }

func (h *handler) Msg(msg comm.Message) error {
	m := h.m
	method, _ := msg.Data["method"].(string)
	switch method {
	case "update":
		st, _ := msg.Data["state"].(map[string]any)
		if st == nil {
			return fmt.Errorf("widget %s: update without a state", m.id)
		}
		if err := insertBuffers(st, msg.Data["buffer_paths"], msg.Buffers); err != nil {
			return fmt.Errorf("widget %s: %w", m.id, err)
		}
		if echoOn() {
			m.sendState("echo_update", st)
		}
		names := make([]string, 0, len(st))
		for k := range st {
			names = append(names, k)
		}
		sort.Strings(names)
		var errs []string
		for _, k := range names {
			if err := m.set(k, st[k], true); err != nil {
				errs = append(errs, err.Error())
			}
		}
		if len(errs) > 0 {
			// Put the page back where the kernel is.
			m.sendState("update", m.snapshot())
			return fmt.Errorf("%s: the front end sent a state gocl cannot take: %s", m, strings.Join(errs, "; "))
		}
		return nil
	case "request_state":
		m.sendState("update", m.snapshot())
		return nil
	case "custom":
		content, _ := msg.Data["content"].(map[string]any)
		m.mu.Lock()
		fs := append([]func(map[string]any, [][]byte){}, m.onCustom...)
		m.mu.Unlock()
		for _, f := range fs {
			f(content, msg.Buffers)
		}
		return nil
	}
	return fmt.Errorf("widget %s: unknown method %q in comm_msg (gocl speaks widget protocol %s)", m.id, method, ProtocolVersion)
}

func (h *handler) Closed(comm.Message) {
	h.m.mu.Lock()
	h.m.closed = true
	h.m.mu.Unlock()
	unregister(h.m)
}

// NewModel makes any model of the widget specification by name, with attrs
// set over its defaults: widgets.NewModel("IntProgressModel",
// map[string]any{"value": 3, "max": 10}) for a widget this package has no
// type for. Binary attributes ([]byte, an Image's value) travel as buffers.
func NewModel(name string, attrs map[string]any) *Model {
	return newModel(name, attrs)
}
