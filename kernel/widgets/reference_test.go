package widgets

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/seed43a1e1ab/gocl/kernel/comm"
)

// referenceScript makes the widgets of TestMatchesIpywidgets with Python's
// ipywidgets 8 and prints each one's state, its layout's and its style's.
const referenceScript = `
import json, ipywidgets as w
assert w._version.__protocol_version__ == "2.1.0", w._version.__protocol_version__
made = {
    "IntSlider": w.IntSlider(description="n", min=0, max=10, value=3),
    "FloatSlider": w.FloatSlider(description="x", min=0, max=1, value=0.5, step=0.01),
    "FloatLogSlider": w.FloatLogSlider(description="size", min=3, max=9, value=1e6),
    "Dropdown": w.Dropdown(description="memory", options=["pageable", "pinned", "mapped"], value="pinned"),
    "ToggleButtons": w.ToggleButtons(description="direction", options=["to device", "to host"], value="to host"),
    "Checkbox": w.Checkbox(description="blocking", value=True),
    "Button": w.Button(description="run"),
    "Text": w.Text(description="name", value="gocl"),
    "Output": w.Output(),
    "Label": w.Label(value="hello"),
    "Play": w.Play(min=0, max=10, value=0, interval=100),
    "HBox": w.HBox([]),
    "VBox": w.VBox([]),
}
out = {}
for name, x in made.items():
    out[name] = {"state": x.get_state(), "layout": x.layout.get_state(),
                 "style": x.style.get_state() if getattr(x, "style", None) is not None else None}
print(json.dumps(out))
`

// ipywidgetsPython finds a Python with ipywidgets 8: $GOCL_IPYWIDGETS_PYTHON,
// or the venv install.sh makes ($GOCL_VENV, /opt/gocl/venv,
// ~/.local/share/gocl/venv).
func ipywidgetsPython() string {
	cands := []string{os.Getenv("GOCL_IPYWIDGETS_PYTHON")}
	if v := os.Getenv("GOCL_VENV"); v != "" {
		cands = append(cands, filepath.Join(v, "bin", "python"))
	}
	cands = append(cands, "/opt/gocl/venv/bin/python")
	if home, err := os.UserHomeDir(); err == nil {
		cands = append(cands, filepath.Join(home, ".local", "share", "gocl", "venv", "bin", "python"))
	}
	for _, c := range cands {
		if c == "" {
			continue
		}
		if exec.Command(c, "-c", "import ipywidgets; assert ipywidgets.__version__.startswith('8.')").Run() == nil {
			return c
		}
	}
	return ""
}

// TestMatchesIpywidgets compares the state of every widget gocl makes, and
// of its layout and style, with the state Python's ipywidgets 8 sends for
// the same widget: the same attributes, the same values (references aside,
// which are fresh ids on both sides). ipywidgets' _view_count, a counter
// its kernel side turns on only on request (null otherwise, the front end's
// default too), is the one attribute gocl leaves out.
func TestMatchesIpywidgets(t *testing.T) {
	py := ipywidgetsPython()
	if py == "" {
		t.Skip("no Python with ipywidgets 8 (install.sh --test makes one; or set GOCL_IPYWIDGETS_PYTHON)")
	}
	script := filepath.Join(t.TempDir(), "ref.py")
	if err := os.WriteFile(script, []byte(referenceScript), 0o644); err != nil {
		t.Fatal(err)
	}
	raw, err := exec.Command(py, script).Output()
	if err != nil {
		t.Fatalf("%s %s: %v", py, script, err)
	}
	var ref map[string]map[string]map[string]any
	if err := json.Unmarshal(raw, &ref); err != nil {
		t.Fatalf("ipywidgets' states: %v\n%s", err, raw)
	}

	wire := newWire(t)
	made := map[string]Widget{
		"IntSlider": NewIntSlider("n", 0, 10, 3), "FloatSlider": nil, "FloatLogSlider": NewFloatLogSlider("size", 3, 9, 1e6),
		"Dropdown":      NewDropdown("memory", []string{"pageable", "pinned", "mapped"}, "pinned"),
		"ToggleButtons": NewToggleButtons("direction", []string{"to device", "to host"}, "to host"),
		"Checkbox":      NewCheckbox("blocking", true), "Button": NewButton("run"), "Text": NewText("name", "gocl"),
		"Output": NewOutput(), "Label": NewLabel("hello"), "Play": NewPlay(0, 10, 0, 100), "HBox": NewHBox(), "VBox": NewVBox(),
	}
	fs := NewFloatSlider("x", 0, 1, 0.5)
	fs.SetStep(0.01)
	made["FloatSlider"] = fs
	states := map[string]map[string]any{}
	for _, m := range wire.take() {
		switch m.Type {
		case comm.TypeOpen:
			states[m.CommID] = m.Data["state"].(map[string]any)
		case comm.TypeMsg:
			for k, v := range m.Data["state"].(map[string]any) {
				states[m.CommID][k] = v
			}
		}
	}
	for name, w := range made {
		want := ref[name]
		if want == nil {
			t.Errorf("ipywidgets made no %s", name)
			continue
		}
		m := w.Base()
		compareState(t, name, states[m.ID()], want["state"])
		compareState(t, name+".layout", states[m.Layout().ID()], want["layout"])
		if m.Style() != nil || want["style"] != nil {
			if m.Style() == nil {
				t.Errorf("%s has no style; ipywidgets gives it %v", name, want["style"])
				continue
			}
			compareState(t, name+".style", states[m.Style().ID()], want["style"])
		}
	}
}

func compareState(t *testing.T, what string, got, want map[string]any) {
	t.Helper()
	if got == nil {
		t.Errorf("%s: gocl sent no state", what)
		return
	}
	for k, w := range want {
		if k == "_view_count" {
			continue
		}
		g, ok := got[k]
		if !ok {
			t.Errorf("%s: gocl lacks %s (ipywidgets: %v)", what, k, w)
			continue
		}
		if ws, ok := w.(string); ok && strings.HasPrefix(ws, refPrefix) {
			if gs, _ := g.(string); !strings.HasPrefix(gs, refPrefix) {
				t.Errorf("%s.%s: %v, want a reference", what, k, g)
			}
			continue
		}
		if !reflect.DeepEqual(g, w) {
			t.Errorf("%s.%s: gocl %#v, ipywidgets %#v", what, k, g, w)
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("%s: gocl sends %s, which ipywidgets does not", what, k)
		}
	}
}
