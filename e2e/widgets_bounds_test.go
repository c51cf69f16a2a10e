package e2e

import (
	"strings"
	"testing"
)

// TestWidgetHugeValues: a front end that sends a bounded widget a number
// far beyond its range (1e19, 1e308) moves it to the bound, as ipywidgets
// does; before, an IntSlider(0..10) became 0 (the int conversion wrapped).
func TestWidgetHugeValues(t *testing.T) {
	k := startKernel(t)
	rep, outs := k.execute(`s := widgets.NewIntSlider("n", 0, 10, 5)
f := widgets.NewFloatSlider("x", 0, 1, 0.5)
widgets.Show(s, f)`, nil)
	if rep["status"] != "ok" {
		t.Fatalf("cell failed: %v", rep)
	}
	ids := viewIDs(t, outs, "display_data")
	if len(ids) != 2 {
		t.Fatalf("displayed %v, want the two sliders", ids)
	}
	for _, c := range []struct {
		id    string
		value any
		read  string
		want  string
	}{
		{ids[0], 1e19, "s.Value()", "10"},
		{ids[0], 3, "s.Value()", "3"},
		{ids[0], 1e308, "s.Value()", "10"},
		{ids[0], -1e19, "s.Value()", "0"},
		{ids[1], 1e308, "f.Value()", "1"},
	} {
		k.commSend("comm_msg", map[string]any{"comm_id": c.id,
			"data": map[string]any{"method": "update", "state": map[string]any{"value": c.value}, "buffer_paths": []any{}}})
		rep, outs := k.execute("fmt.Println("+c.read+")", nil)
		if got := strings.TrimSpace(stream(t, outs, "stdout")); rep["status"] != "ok" || got != c.want {
			t.Errorf("after the front end sent %v: %s = %q (%v), want %s", c.value, c.read, got, rep["status"], c.want)
		}
	}
}
