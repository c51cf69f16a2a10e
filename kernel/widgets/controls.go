package widgets

import (
	"fmt"
	"math"
)

// IntSlider is a slider of integers (IntSliderModel).
type IntSlider struct{ *Model }

// NewIntSlider makes a slider labelled description from min to max, at
// value (clamped to the range).
func NewIntSlider(description string, min, max, value int) *IntSlider {
	checkRange("NewIntSlider", float64(min), float64(max))
	w := &IntSlider{newModel("IntSliderModel", map[string]any{"description": description, "min": min, "max": max,
		"value": clampInt(value, min, max)})}
	w.validate = intRange(w.Model)
	w.self = w
	return w
}

// Value returns the slider's value.
func (w *IntSlider) Value() int { return w.Get("value").(int) }

// SetValue moves the slider to v (clamped to its range); the page follows.
func (w *IntSlider) SetValue(v int) { w.Set("value", v) }

// SetStep sets the slider's step.
func (w *IntSlider) SetStep(step int) { w.Set("step", step) }

// OnChange calls f with the new value whenever it changes, from the page or
// from Go.
func (w *IntSlider) OnChange(f func(v int)) { onInt(w.Model, "OnChange of "+w.describe(), f) }

// FloatSlider is a slider of float64 values (FloatSliderModel).
type FloatSlider struct{ *Model }

// NewFloatSlider makes a slider labelled description from min to max, at
// value; its step is a hundredth of the range.
func NewFloatSlider(description string, min, max, value float64) *FloatSlider {
	checkRange("NewFloatSlider", min, max)
	w := &FloatSlider{newModel("FloatSliderModel", map[string]any{"description": description, "min": min, "max": max,
		"step": (max - min) / 100, "value": math.Max(min, math.Min(max, value))})}
	w.validate = floatRange(w.Model, false)
	w.self = w
	return w
}

// Value returns the slider's value.
func (w *FloatSlider) Value() float64 { return w.Get("value").(float64) }

// SetValue moves the slider to v (clamped to its range).
func (w *FloatSlider) SetValue(v float64) { w.Set("value", v) }

// SetStep sets the slider's step.
func (w *FloatSlider) SetStep(step float64) { w.Set("step", step) }

// OnChange calls f with the new value whenever it changes.
func (w *FloatSlider) OnChange(f func(v float64)) { onFloat(w.Model, "OnChange of "+w.describe(), f) }

// FloatLogSlider is a slider on a logarithmic scale (FloatLogSliderModel):
// its ends are exponents of base 10.
type FloatLogSlider struct{ *Model }

// NewFloatLogSlider makes a log slider from 10^minExp to 10^maxExp at
// value, stepping by a tenth of a decade.
func NewFloatLogSlider(description string, minExp, maxExp, value float64) *FloatLogSlider {
	checkRange("NewFloatLogSlider", minExp, maxExp)
	lo, hi := math.Pow(10, minExp), math.Pow(10, maxExp)
	w := &FloatLogSlider{newModel("FloatLogSliderModel", map[string]any{"description": description, "min": minExp,
		"max": maxExp, "value": math.Max(lo, math.Min(hi, value))})}
	w.validate = floatRange(w.Model, true)
	w.self = w
	return w
}

// Value returns the slider's value (not its exponent).
func (w *FloatLogSlider) Value() float64 { return w.Get("value").(float64) }

// SetValue moves the slider to v (clamped to its range).
func (w *FloatLogSlider) SetValue(v float64) { w.Set("value", v) }

// OnChange calls f with the new value whenever it changes.
func (w *FloatLogSlider) OnChange(f func(v float64)) {
	onFloat(w.Model, "OnChange of "+w.describe(), f)
}

// Play is a play button that counts from min to max, one step every
// interval milliseconds, in the page (PlayModel); link it to a slider with
// Link.
type Play struct{ *Model }

// NewPlay makes a Play counting from min to max, starting at value, one
// step every intervalMs milliseconds.
func NewPlay(min, max, value, intervalMs int) *Play {
	checkRange("NewPlay", float64(min), float64(max))
	w := &Play{newModel("PlayModel", map[string]any{"min": min, "max": max, "value": clampInt(value, min, max),
		"interval": intervalMs})}
	w.validate = intRange(w.Model)
	w.self = w
	return w
}

// Value returns the current count.
func (w *Play) Value() int { return w.Get("value").(int) }

// SetValue sets the count.
func (w *Play) SetValue(v int) { w.Set("value", v) }

// OnChange calls f with each new count.
func (w *Play) OnChange(f func(v int)) { onInt(w.Model, "OnChange of Play", f) }

// Checkbox is a check box (CheckboxModel).
type Checkbox struct{ *Model }

// NewCheckbox makes a check box labelled description.
func NewCheckbox(description string, value bool) *Checkbox {
	w := &Checkbox{newModel("CheckboxModel", map[string]any{"description": description, "value": value})}
	w.self = w
	return w
}

// Value reports whether the box is checked.
func (w *Checkbox) Value() bool { return w.Get("value").(bool) }

// SetValue checks or clears the box.
func (w *Checkbox) SetValue(v bool) { w.Set("value", v) }

// OnChange calls f with the new value whenever it changes.
func (w *Checkbox) OnChange(f func(v bool)) {
	c := newCallback(w.Model, "OnChange of "+w.describe())
	w.observeRaw("value", func(_, n any) { c.run(func() { f(n.(bool)) }) })
}

// Text is a one-line text box (TextModel).
type Text struct{ *Model }

// NewText makes a text box labelled description holding value.
func NewText(description, value string) *Text {
	w := &Text{newModel("TextModel", map[string]any{"description": description, "value": value})}
	w.self = w
	return w
}

// Value returns the text.
func (w *Text) Value() string { return w.Get("value").(string) }

// SetValue replaces the text.
func (w *Text) SetValue(v string) { w.Set("value", v) }

// OnChange calls f with the new text whenever it changes (as the user
// types, unless continuous_update is set false).
func (w *Text) OnChange(f func(v string)) { onString(w.Model, "OnChange of "+w.describe(), f) }

// Label is a line of text (LabelModel).
type Label struct{ *Model }

// NewLabel makes a label showing value.
func NewLabel(value string) *Label {
	w := &Label{newModel("LabelModel", map[string]any{"value": value})}
	w.self = w
	return w
}

// Value returns the label's text.
func (w *Label) Value() string { return w.Get("value").(string) }

// SetValue replaces the label's text.
func (w *Label) SetValue(v string) { w.Set("value", v) }

// Button is a push button (ButtonModel).
type Button struct{ *Model }

// NewButton makes a button labelled description.
func NewButton(description string) *Button {
	w := &Button{newModel("ButtonModel", map[string]any{"description": description})}
	w.self = w
	return w
}

// OnClick calls f each time the button is clicked.
func (w *Button) OnClick(f func()) {
	c := newCallback(w.Model, "OnClick of "+w.describe())
	w.OnCustom(func(content map[string]any, _ [][]byte) {
		if content["event"] == "click" {
			c.run(f)
		}
	})
}

// Click does what a click on the page does: it runs the OnClick callbacks.
func (w *Button) Click() {
	w.mu.Lock()
	fs := append([]func(map[string]any, [][]byte){}, w.onCustom...)
	w.mu.Unlock()
	for _, f := range fs {
		f(map[string]any{"event": "click"}, nil)
	}
}

func checkRange(fn string, min, max float64) {
	if !(min <= max) {
		panic(fmt.Sprintf("widgets.%s: min %v is above max %v", fn, min, max))
	}
}

func clampInt(v, min, max int) int {
	if v < min {
		return min
	}
	if v > max {
		return max
	}
	return v
}

// intRange keeps value within [min, max], as ipywidgets' validation does.
func intRange(m *Model) func(string, any) (any, error) {
	return func(name string, v any) (any, error) {
		if name != "value" {
			return v, nil
		}
		m.mu.Lock()
		lo, _ := m.state["min"].(int)
		hi, _ := m.state["max"].(int)
		m.mu.Unlock()
		return clampInt(v.(int), lo, hi), nil
	}
}

func floatRange(m *Model, log bool) func(string, any) (any, error) {
	return func(name string, v any) (any, error) {
		if name != "value" {
			return v, nil
		}
		m.mu.Lock()
		lo, _ := m.state["min"].(float64)
		hi, _ := m.state["max"].(float64)
		m.mu.Unlock()
		if log {
			base := 10.0
			lo, hi = math.Pow(base, lo), math.Pow(base, hi)
		}
		return math.Max(lo, math.Min(hi, v.(float64))), nil
	}
}

func onInt(m *Model, what string, f func(int)) {
	c := newCallback(m, what)
	m.observeRaw("value", func(_, n any) { c.run(func() { f(n.(int)) }) })
}

func onFloat(m *Model, what string, f func(float64)) {
	c := newCallback(m, what)
	m.observeRaw("value", func(_, n any) { c.run(func() { f(n.(float64)) }) })
}

func onString(m *Model, what string, f func(string)) {
	c := newCallback(m, what)
	m.observeRaw("value", func(_, n any) { c.run(func() { f(n.(string)) }) })
}
