package widgets

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"
	"sync"
)

// The published model specification of widget protocol 2.1.0 (see
// schema/README.md): every model's attributes with their types and defaults.
// A widget's state starts from it, and Set checks values against it.
//
//go:embed schema/jupyterwidgetmodels.latest.json
var specJSON []byte

// ProtocolVersion is the widget messaging protocol gocl speaks (comm_open's
// metadata.version).
const ProtocolVersion = "2.1.0"

// Module names and versions of ipywidgets 8's models.
const (
	BaseModule          = "@jupyter-widgets/base"
	ControlsModule      = "@jupyter-widgets/controls"
	OutputModule        = "@jupyter-widgets/output"
	BaseModuleVersion   = "2.0.0"
	ControlsVersion     = "2.0.0"
	OutputModuleVersion = "1.0.0"
)

// attrSpec is one attribute of a model.
type attrSpec struct {
	Name      string          `json:"name"`
	Type      json.RawMessage `json:"type"` // "int", or ["int", "string"]
	Default   any             `json:"default"`
	AllowNone bool            `json:"allow_none"`
	Enum      []string        `json:"enum"`
	Widget    string          `json:"widget"` // for references: "Layout", "SliderStyle", ...
	Items     *struct {
		Type   string `json:"type"`
		Widget string `json:"widget"`
	} `json:"items"`

	types []string
}

// modelSpec is one model of the specification.
type modelSpec struct {
	Attributes []*attrSpec `json:"attributes"`
	Model      struct {
		Name    string `json:"name"`
		Module  string `json:"module"`
		Version string `json:"version"`
	} `json:"model"`
	View *struct {
		Name    string `json:"name"`
		Module  string `json:"module"`
		Version string `json:"version"`
	} `json:"view"`

	byName map[string]*attrSpec
}

var (
	specOnce sync.Once
	specs    map[string]*modelSpec
	specErr  error
)

// specFor returns the specification of the model named name
// ("IntSliderModel").
func specFor(name string) *modelSpec {
	specOnce.Do(func() {
		var list []*modelSpec
		if err := json.Unmarshal(specJSON, &list); err != nil {
			specErr = fmt.Errorf("widgets: the embedded model specification does not parse: %w", err)
			return
		}
		specs = map[string]*modelSpec{}
		for _, m := range list {
			m.byName = map[string]*attrSpec{}
			for _, a := range m.Attributes {
				if err := json.Unmarshal(a.Type, &a.types); err != nil {
					var one string
					if err := json.Unmarshal(a.Type, &one); err != nil {
						specErr = fmt.Errorf("widgets: model %s attribute %s: bad type %s", m.Model.Name, a.Name, a.Type)
						return
					}
					a.types = []string{one}
				}
				m.byName[a.Name] = a
			}
			specs[m.Model.Name] = m
		}
	})
	if specErr != nil {
		panic(specErr)
	}
	m := specs[name]
	if m == nil {
		panic(fmt.Sprintf("widgets: no model %q in the widget specification", name))
	}
	return m
}

// newInstance is the default of a reference attribute that is a fresh
// widget (a Layout, a style).
const newInstance = "reference to new instance"

// attrNames lists the model's attribute names, sorted.
func (m *modelSpec) attrNames() []string {
	names := make([]string, 0, len(m.byName))
	for n := range m.byName {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// normalize checks v against the attribute's type and returns it in the form
// the state holds: int for "int", float64 for "float", string, bool, []any
// and map[string]any for arrays and objects, []byte for "bytes", "IPY_MODEL_"
// strings for references. JSON numbers (float64) that are whole are accepted
// for "int".
func (a *attrSpec) normalize(v any) (any, error) {
	if v == nil {
		if a.AllowNone {
			return nil, nil
		}
		return nil, fmt.Errorf("%s cannot be null", a.Name)
	}
	var errs []string
	for _, t := range a.types {
		n, err := normalizeAs(t, a, v)
		if err == nil {
			return n, nil
		}
		errs = append(errs, err.Error())
	}
	return nil, fmt.Errorf("%s: %s", a.Name, strings.Join(errs, "; or "))
}

func normalizeAs(t string, a *attrSpec, v any) (any, error) {
	switch t {
	case "int":
		switch x := v.(type) {
		case int:
			return x, nil
		case int64:
			return int(x), nil
		case int32:
			return int(x), nil
		case float64:
			if x != math.Trunc(x) || math.IsInf(x, 0) {
				return nil, fmt.Errorf("want an integer, got %v", x)
			}
			// Converting a float64 beyond int's range to int gives an
			// unspecified int (1e19 becomes math.MinInt64): refuse it.
			if x < math.MinInt64 || x >= math.MaxInt64 {
				return nil, fmt.Errorf("want an integer, got %v, beyond the range of a Go int", x)
			}
			return int(x), nil
		}
	case "float":
		switch x := v.(type) {
		case float64:
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return nil, fmt.Errorf("want a finite number, got %v", x)
			}
			return x, nil
		case float32:
			return float64(x), nil
		case int:
			return float64(x), nil
		case int64:
			return float64(x), nil
		}
	case "string":
		if s, ok := v.(string); ok {
			if len(a.Enum) > 0 && !contains(a.Enum, s) {
				return nil, fmt.Errorf("want one of %q, got %q", a.Enum, s)
			}
			return s, nil
		}
	case "bool":
		if b, ok := v.(bool); ok {
			return b, nil
		}
	case "array":
		switch x := v.(type) {
		case []any:
			return x, nil
		case []string:
			out := make([]any, len(x))
			for i, s := range x {
				out[i] = s
			}
			return out, nil
		}
	case "object":
		if m, ok := v.(map[string]any); ok {
			return m, nil
		}
	case "bytes":
		if b, ok := v.([]byte); ok {
			return b, nil
		}
	case "reference":
		switch x := v.(type) {
		case string:
			if strings.HasPrefix(x, refPrefix) {
				return x, nil
			}
		case Widget:
			return ref(x.Base()), nil
		}
	default: // Date, Datetime, Time: JSON objects as the front end sends them
		if m, ok := v.(map[string]any); ok {
			return m, nil
		}
	}
	return nil, fmt.Errorf("want %s, got %T", t, v)
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// refPrefix starts a reference to another widget in a state.
const refPrefix = "IPY_MODEL_"

func ref(m *Model) string { return refPrefix + m.id }
