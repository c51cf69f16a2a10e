// Package widgets is ipywidgets 8 for Go cells: sliders, drop-downs,
// buttons, text boxes, output areas and boxes that live in the page and talk
// to the kernel over Jupyter comms (widget protocol 2.1.0, models of
// @jupyter-widgets/controls 2.0.0, @jupyter-widgets/base 2.0.0 and
// @jupyter-widgets/output 1.0.0). Cells have it as widgets, without an import
// line.
//
//	size := widgets.NewIntSlider("KiB", 4, 1024, 64)
//	out := widgets.NewOutput()
//	size.OutputTo(out)
//	size.OnChange(func(v int) { out.Replace(fmt.Sprintf("%d KiB", v)) })
//	widgets.Show(size, out)
//
// A widget's state is synchronized both ways: dragging the slider changes
// size.Value() (and the kernel echoes the change to every front end with
// echo_update), and size.SetValue(128) moves the slider on the page.
// Callbacks (OnChange, OnClick, Observe, Interact) run in the engine as cells
// do; what they print, display or panic with goes to the Output given with
// OutputTo, else to an output area gocl adds to the cell that registered
// them. Interact builds controls from a function's parameters and re-runs it
// on every change, replacing its output in place.
//
// Every widget's state starts from the published model specification
// (schema/), and Set refuses values that do not fit it. A displayed widget is
// a display_data with application/vnd.jupyter.widget-view+json; it also
// carries text/plain and, for an Output (or a box holding one), its contents
// as text/html for pages that cannot run widgets. Shown with Show, that copy
// follows the Output's changes (update_display_data), so a saved notebook
// read statically shows the last state.
package widgets
