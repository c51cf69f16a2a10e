package widgets

import (
	"fmt"
	"html"
	"strings"

	"github.com/seed43a1e1ab/gocl/kernel/display"
)

// Box lays out widgets in a row (HBox) or a column (VBox).
type Box struct{ *Model }

// NewHBox lays children out in a row.
func NewHBox(children ...Widget) *Box { return newBox("HBoxModel", children) }

// NewVBox lays children out in a column.
func NewVBox(children ...Widget) *Box { return newBox("VBoxModel", children) }

func newBox(model string, children []Widget) *Box {
	refs := make([]any, len(children))
	for i, c := range children {
		if c == nil || c.Base() == nil {
			panic(fmt.Sprintf("widgets: child %d of the box is nil", i))
		}
		refs[i] = ref(c.Base())
	}
	b := &Box{newModel(model, map[string]any{"children": refs})}
	b.children = append([]Widget(nil), children...)
	b.self = b
	return b
}

// Children returns the box's widgets.
func (b *Box) Children() []Widget {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]Widget(nil), b.children...)
}

// SetChildren replaces the box's widgets.
func (b *Box) SetChildren(children ...Widget) {
	refs := make([]any, len(children))
	for i, c := range children {
		refs[i] = ref(c.Base())
	}
	b.mu.Lock()
	b.children = append([]Widget(nil), children...)
	b.mu.Unlock()
	b.Set("children", refs)
}

// Link keeps attribute attrA of a and attrB of b equal in the page itself
// (ipywidgets' jslink, a LinkModel): a Play driving a slider, say. The
// kernel hears of the changes as of any other.
func Link(a Widget, attrA string, b Widget, attrB string) *Model {
	a.Base().attr(attrA)
	b.Base().attr(attrB)
	return newModel("LinkModel", map[string]any{
		"source": []any{ref(a.Base()), attrA},
		"target": []any{ref(b.Base()), attrB},
	})
}

// Show displays widgets in the cell's output (the widget-view output of
// each), as display.Show does, each with a display_id: when an Output
// shown this way changes, its static copy (text/html) in the notebook is
// updated too.
func Show(ws ...Widget) {
	for _, w := range ws {
		m := w.Base()
		m.mu.Lock()
		m.shown = true
		m.mu.Unlock()
		display.Publish(display.Message{Kind: display.KindShow, Data: display.BundleOf(m.self), Metadata: map[string]any{},
			DisplayID: m.displayID()})
	}
}

// displayID is the display_id Show gives the widget's outputs.
func (m *Model) displayID() string { return "gocl-widget-" + m.id }

func (m *Model) shownStatic() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.shown
}

// staticHTML is the text/html a displayed widget carries besides its view,
// for pages that cannot run widgets (nbconvert, GitHub): an Output shows its
// outputs, a box the static HTML of its children. Empty for a widget with
// nothing worth showing.
func staticHTML(w Widget) string {
	switch x := w.(type) {
	case *Output:
		var b strings.Builder
		for _, out := range x.Outputs() {
			b.WriteString(outputHTML(out))
		}
		if b.Len() == 0 {
			return ""
		}
		return "<div class=\"gocl-widget-output\">" + b.String() + "</div>"
	case *Box:
		var b strings.Builder
		dir := "column"
		if x.ModelName() == "HBoxModel" {
			dir = "row"
		}
		for _, c := range x.Children() {
			if h := staticHTML(c.Base().self); h != "" {
				b.WriteString("<div>" + h + "</div>")
			}
		}
		if b.Len() == 0 {
			return ""
		}
		return fmt.Sprintf("<div style=\"display:flex;flex-direction:%s;gap:1em\">%s</div>", dir, b.String())
	case *Interactive:
		return staticHTML(x.Box)
	}
	// Controls have none: their static copy is not updated as they move
	// (that would redraw them on the page under the user's pointer), and a
	// stale value would mislead.
	return ""
}

// outputHTML renders one nbformat output as HTML, for staticHTML.
func outputHTML(out map[string]any) string {
	switch out["output_type"] {
	case "stream":
		s, _ := out["text"].(string)
		return "<pre>" + html.EscapeString(s) + "</pre>"
	case "error":
		n, _ := out["ename"].(string)
		v, _ := out["evalue"].(string)
		return "<pre style=\"color:#b00\">" + html.EscapeString(n+": "+v) + "</pre>"
	case "display_data", "execute_result":
		data, _ := out["data"].(map[string]any)
		if h, ok := data[display.MIMEHTML].(string); ok {
			return h
		}
		if s, ok := data[display.MIMESVG].(string); ok {
			return s
		}
		if p, ok := data[display.MIMEPNG].(string); ok {
			return "<img src=\"data:image/png;base64," + p + "\">"
		}
		if s, ok := data[display.MIMEText].(string); ok {
			return "<pre>" + html.EscapeString(s) + "</pre>"
		}
	}
	return ""
}
