package engine

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/traefik/yaegi/interp"

	"github.com/seed43a1e1ab/gocl/kernel/display"
)

// varRef is what a variablesReference expands: a frame's locals, the
// session's globals, or a value's fields, elements or entries.
type varRef struct {
	frame   *interp.DebugFrame
	globals bool
	value   reflect.Value
}

// dapVar is one variable of the variables panel.
type dapVar struct {
	name, eval string
	v          reflect.Value
	text, typ  string // set for a child that is text, not a value (a cl object's summary)
}

// maxChildren is how many elements of a slice or map the panel lists.
const maxChildren = 200

// newRef hands out a reference; d.mu is held.
func (d *debugState) newRef(r varRef) int {
	d.nextRef++
	d.refs[d.nextRef] = r
	return d.nextRef
}

func (d *debugState) variables(args json.RawMessage) (any, error) {
	var a struct {
		Ref int `json:"variablesReference"`
	}
	if err := decodeArgs(args, &a); err != nil {
		return nil, err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	r, ok := d.refs[a.Ref]
	if !ok {
		return nil, dapError(fmt.Sprintf("no variablesReference %d (they last until the cell runs on)", a.Ref))
	}
	var vals []dapVar
	switch {
	case r.frame != nil:
		vals = frameLocals(r.frame)
		if n := r.frame.Name(); n == "main" || n == "<init>" || n == bodyName {
			// A cell's top level: its names are the session's globals,
			// as a Python cell's locals are its module's globals. A
			// local of the body (a name declared in a block) hides the
			// global of the same name, as in Go.
			seen := map[string]bool{}
			for _, v := range vals {
				seen[v.name] = true
			}
			for _, g := range d.globalValues() {
				if !seen[g.name] {
					vals = append(vals, g)
				}
			}
		}
	case r.globals:
		vals = d.globalValues()
	default:
		vals = children(r.value, "")
	}
	return map[string]any{"variables": d.describe(vals)}, nil
}

// describe turns values into DAP variables, handing out references for
// the ones that expand; d.mu is held.
func (d *debugState) describe(vals []dapVar) []map[string]any {
	out := []map[string]any{}
	for _, nv := range vals {
		v := map[string]any{"name": nv.name, "evaluateName": nv.eval, "variablesReference": 0}
		if nv.typ != "" || !nv.v.IsValid() {
			v["value"], v["type"] = nv.text, nv.typ
			out = append(out, v)
			continue
		}
		v["value"], v["type"] = valueText(nv.v), typeText(nv.v)
		if expandable(nv.v) {
			v["variablesReference"] = d.newRef(varRef{value: nv.v})
		}
		out = append(out, v)
	}
	return out
}

// frameLocals are a frame's variables, innermost scope first.
func frameLocals(f *interp.DebugFrame) []dapVar {
	var out []dapVar
	seen := map[string]bool{}
	for _, s := range f.Scopes() {
		vars := s.Variables()
		sort.SliceStable(vars, func(i, j int) bool { return vars[i].Name < vars[j].Name })
		for _, v := range vars {
			if seen[v.Name] || v.Name == "_" || strings.HasPrefix(v.Name, helperPrefix) {
				continue
			}
			seen[v.Name] = true
			out = append(out, dapVar{name: v.Name, eval: v.Name, v: v.Value})
		}
	}
	return out
}

// globalValues are the session's top-level variables and constants, by
// name; d.mu is held (Scope takes the engine's state lock only).
func (d *debugState) globalValues() []dapVar {
	s := d.e.Scope()
	names := make([]string, 0, len(s.Globals))
	for n := range s.Globals {
		names = append(names, n)
	}
	sort.Strings(names)
	var out []dapVar
	for _, n := range names {
		sym := s.Globals[n]
		switch {
		case sym.Value.IsValid() && (sym.Kind == "var" || sym.Kind == "const"):
			out = append(out, dapVar{name: n, eval: n, v: sym.Value})
		case sym.Kind == "func" || sym.Kind == "type":
			out = append(out, dapVar{name: n, eval: n, text: sym.Decl, typ: sym.Kind})
		}
	}
	return out
}

// inspectVariables lists the session's top-level names, whether or not a
// cell is stopped (Jupyter's addition to DAP).
func (d *debugState) inspectVariables(json.RawMessage) (any, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return map[string]any{"variables": d.describe(d.globalValues())}, nil
}

// lookup finds a name, or a dotted path of fields, among the locals of a
// frame (when one is given) and then the globals; d.mu is held.
func (d *debugState) lookup(expr string, frameID int) (reflect.Value, bool) {
	parts := strings.Split(strings.TrimSpace(expr), ".")
	var vals []dapVar
	if f, ok := d.frames[frameID]; ok {
		vals = frameLocals(f)
	}
	vals = append(vals, d.globalValues()...)
	for _, nv := range vals {
		if nv.name != parts[0] || !nv.v.IsValid() {
			continue
		}
		v := nv.v
		for _, p := range parts[1:] {
			v = deref(v)
			if v.Kind() != reflect.Struct {
				return reflect.Value{}, false
			}
			if v = v.FieldByName(p); !v.IsValid() {
				return reflect.Value{}, false
			}
		}
		return v, true
	}
	return reflect.Value{}, false
}

func (d *debugState) evaluate(args json.RawMessage) (any, error) {
	var a struct {
		Expression string `json:"expression"`
		FrameID    int    `json:"frameId"`
	}
	if err := decodeArgs(args, &a); err != nil {
		return nil, err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	v, ok := d.lookup(a.Expression, a.FrameID)
	if !ok {
		var err error
		if v, err = d.evalExpr(a.Expression, a.FrameID); err != nil {
			return nil, dapError(err.Error())
		}
	}
	ref := 0
	if expandable(v) {
		ref = d.newRef(varRef{value: v})
	}
	return map[string]any{"result": valueText(v), "type": typeText(v), "variablesReference": ref}, nil
}

// richInspectVariables is a variable's display bundle, as a cell showing it
// would display it (a cl object's card).
func (d *debugState) richInspectVariables(args json.RawMessage) (any, error) {
	var a struct {
		Name    string `json:"variableName"`
		FrameID int    `json:"frameId"`
	}
	if err := decodeArgs(args, &a); err != nil {
		return nil, err
	}
	d.mu.Lock()
	v, ok := d.lookup(a.Name, a.FrameID)
	d.mu.Unlock()
	if !ok {
		return map[string]any{"data": map[string]any{}, "metadata": map[string]any{}}, nil
	}
	data := map[string]any{"text/plain": valueText(v)}
	if v.CanInterface() && richSafe(v.Interface()) {
		func() {
			defer func() { _ = recover() }()
			for mime, x := range display.BundleOf(v.Interface()) {
				data[mime] = x
			}
		}()
	}
	return map[string]any{"data": data, "metadata": map[string]any{}}, nil
}

// deref follows pointers and interfaces.
func deref(v reflect.Value) reflect.Value {
	for v.IsValid() && (v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface) && !v.IsNil() {
		v = v.Elem()
	}
	return v
}

// expandable reports whether a value has children to list.
func expandable(v reflect.Value) bool {
	if _, ok := clSummary(v); ok {
		return true
	}
	v = deref(v)
	switch v.Kind() {
	case reflect.Struct:
		return v.NumField() > 0
	case reflect.Slice, reflect.Array, reflect.Map:
		return v.Len() > 0
	}
	return false
}

// children are a value's fields, elements or entries.
func children(v reflect.Value, _ string) []dapVar {
	if kids, ok := clSummary(v); ok {
		return kids
	}
	v = deref(v)
	var out []dapVar
	switch v.Kind() {
	case reflect.Struct:
		t := v.Type()
		for i := 0; i < v.NumField(); i++ {
			out = append(out, dapVar{name: t.Field(i).Name, v: v.Field(i)})
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len() && i < maxChildren; i++ {
			out = append(out, dapVar{name: fmt.Sprintf("[%d]", i), v: v.Index(i)})
		}
	case reflect.Map:
		keys := v.MapKeys()
		sort.Slice(keys, func(i, j int) bool { return fmt.Sprint(keys[i]) < fmt.Sprint(keys[j]) })
		for i, k := range keys {
			if i == maxChildren {
				break
			}
			out = append(out, dapVar{name: fmt.Sprintf("[%v]", k), v: v.MapIndex(k)})
		}
	}
	return out
}

// valueText is a value as the panel shows it, at most a line.
func valueText(v reflect.Value) (s string) {
	defer func() {
		if r := recover(); r != nil {
			s = fmt.Sprintf("<cannot show: %v>", r)
		}
	}()
	if !v.IsValid() {
		return "<nil>"
	}
	switch v.Kind() {
	case reflect.String:
		s = fmt.Sprintf("%q", v.String())
	case reflect.Slice, reflect.Map:
		if v.IsNil() {
			return "nil"
		}
		s = fmt.Sprintf("len %d: %v", v.Len(), v)
	default:
		s = fmt.Sprintf("%v", v)
	}
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

// typeText is a value's type as Go writes it.
func typeText(v reflect.Value) string {
	if !v.IsValid() {
		return ""
	}
	return v.Type().String()
}
