package widgets

import (
	"fmt"
	"strings"
)

// Dropdown picks one of a list of options (DropdownModel).
type Dropdown struct{ selection }

// NewDropdown makes a drop-down list labelled description, showing value,
// which must be one of options.
func NewDropdown(description string, options []string, value string) *Dropdown {
	w := &Dropdown{newSelection("DropdownModel", "NewDropdown", description, options, value)}
	w.self = w
	return w
}

// ToggleButtons picks one of a row of buttons (ToggleButtonsModel).
type ToggleButtons struct{ selection }

// NewToggleButtons makes a row of buttons labelled description, one per
// option, with value pressed.
func NewToggleButtons(description string, options []string, value string) *ToggleButtons {
	w := &ToggleButtons{newSelection("ToggleButtonsModel", "NewToggleButtons", description, options, value)}
	w.self = w
	return w
}

// selection is what Dropdown and ToggleButtons share: the front end holds
// the option labels and the selected index; the value is the label.
type selection struct {
	*Model
	options []string
}

func newSelection(model, fn, description string, options []string, value string) selection {
	if len(options) == 0 {
		panic(fmt.Sprintf("widgets.%s: no options", fn))
	}
	i := indexOf(options, value)
	if i < 0 {
		panic(fmt.Sprintf("widgets.%s: value %q is not one of the options %q", fn, value, options))
	}
	s := selection{Model: newModel(model, map[string]any{"description": description, "_options_labels": options, "index": i}),
		options: append([]string(nil), options...)}
	n := len(options)
	s.validate = func(name string, v any) (any, error) {
		if name == "index" && v != nil {
			if i := v.(int); i < 0 || i >= n {
				return nil, fmt.Errorf("index %d is out of the options' range 0..%d", i, n-1)
			}
		}
		if name == "_options_labels" {
			return nil, fmt.Errorf("the options cannot change: make a new widget")
		}
		return v, nil
	}
	return s
}

func indexOf(l []string, s string) int {
	for i, x := range l {
		if x == s {
			return i
		}
	}
	return -1
}

// Options returns the option labels.
func (s selection) Options() []string { return append([]string(nil), s.options...) }

// Index returns the selected option's index.
func (s selection) Index() int {
	i, _ := s.Get("index").(int)
	return i
}

// Value returns the selected option.
func (s selection) Value() string { return s.options[s.Index()] }

// SetValue selects option v; it panics when v is not an option.
func (s selection) SetValue(v string) {
	i := indexOf(s.options, v)
	if i < 0 {
		panic(fmt.Sprintf("widgets: %q is not one of the options %s", v, strings.Join(quoteAll(s.options), ", ")))
	}
	s.Set("index", i)
}

// OnChange calls f with the newly selected option.
func (s selection) OnChange(f func(v string)) {
	c := newCallback(s.Model, "OnChange of "+s.describe())
	s.observeRaw("index", func(_, n any) {
		i, _ := n.(int)
		c.run(func() { f(s.options[i]) })
	})
}

func quoteAll(l []string) []string {
	out := make([]string, len(l))
	for i, s := range l {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}
