package widgets

import (
	"fmt"
	"reflect"
)

// Interactive is a function with a control per parameter and an Output
// under them: every change of a control calls the function again with the
// controls' values, and its output and results replace the previous ones in
// place. It is a VBox of the controls and the Output.
type Interactive struct {
	*Box
	Controls []Widget
	Out      *Output

	fn reflect.Value
}

// Param names a parameter of an Interact function and gives its control or
// an abbreviation of it (see Interact).
type Param struct {
	Name    string
	Control any
}

// Arg is Param{name, control}: Interact(f, widgets.Arg("size", 64)).
func Arg(name string, control any) Param { return Param{Name: name, Control: control} }

// NewInteractive builds an Interactive for f without displaying it; see
// Interact.
func NewInteractive(f any, controls ...any) *Interactive {
	fv := reflect.ValueOf(f)
	if fv.Kind() != reflect.Func {
		panic(fmt.Sprintf("widgets.Interact: want a function, got %T", f))
	}
	ft := fv.Type()
	if ft.IsVariadic() {
		panic("widgets.Interact: a variadic function cannot be given controls")
	}
	if len(controls) > ft.NumIn() {
		panic(fmt.Sprintf("widgets.Interact: %d controls for a function of %d parameters", len(controls), ft.NumIn()))
	}
	it := &Interactive{fn: fv}
	for i := 0; i < ft.NumIn(); i++ {
		var c any
		name := fmt.Sprintf("arg%d", i+1)
		if i < len(controls) {
			c = controls[i]
			if p, ok := c.(Param); ok {
				name, c = p.Name, p.Control
			}
		}
		w, err := controlFor(name, ft.In(i), c)
		if err != nil {
			panic(fmt.Sprintf("widgets.Interact: parameter %d (%s): %v", i+1, name, err))
		}
		it.Controls = append(it.Controls, w)
	}
	it.Out = NewOutput()
	it.Box = NewVBox(append(append([]Widget{}, it.Controls...), it.Out)...)
	it.self = it
	for _, w := range it.Controls {
		w.Base().OutputTo(it.Out)
		name := "value"
		if _, ok := w.Base().spec.byName["index"]; ok {
			name = "index"
		}
		c := newCallback(w.Base(), "Interact of "+w.Base().describe())
		w.Base().observeRaw(name, func(_, _ any) { c.run(it.Update) })
	}
	it.Update()
	return it
}

// Interact displays controls for f's parameters and calls f once now and
// again at every change, its output and non-nil results replacing the
// previous ones. Each control is a widget of this package (an IntSlider for
// an int parameter...), or an abbreviation: an int or float64 value makes a
// slider from 0 to three times it (or -v to 3v), a [2]int or [2]float64 a
// slider over that range, a []string a Dropdown, a bool a Checkbox, a string
// a Text. Parameters without one get a control for their type's zero
// value. Wrap one in Arg to name it. NewInteractive does the same without
// displaying, for code that wants the controls.
func Interact(f any, controls ...any) {
	Show(NewInteractive(f, controls...))
}

// Update calls the function again with the controls' values, replacing its
// output.
func (it *Interactive) Update() {
	args := make([]reflect.Value, len(it.Controls))
	for i, w := range it.Controls {
		args[i] = valueOf(w, it.fn.Type().In(i))
	}
	it.Out.Clear(true)
	c := &callback{what: "Interact function " + it.fn.Type().String(), area: it.Out}
	c.run(func() {
		for _, r := range it.fn.Call(args) {
			if !r.IsValid() || (r.Kind() == reflect.Interface || r.Kind() == reflect.Pointer) && r.IsNil() {
				continue
			}
			it.Out.Show(r.Interface())
		}
	})
	it.Out.omu.Lock()
	if it.Out.clearNext { // f printed nothing: the old output goes anyway
		it.Out.clearLocked()
		it.Out.syncLocked()
	}
	it.Out.omu.Unlock()
}

// controlFor makes (or takes) the control of a parameter of type t.
func controlFor(name string, t reflect.Type, c any) (Widget, error) {
	if w, ok := c.(Widget); ok {
		if _, err := convertible(w, t); err != nil {
			return nil, err
		}
		return w, nil
	}
	if c == nil {
		c = reflect.Zero(t).Interface()
	}
	switch x := c.(type) {
	case int:
		lo, hi := spanInt(x)
		return NewIntSlider(name, lo, hi, x), check(t, reflect.Int)
	case [2]int:
		return NewIntSlider(name, x[0], x[1], x[0]+(x[1]-x[0])/2), check(t, reflect.Int)
	case float64:
		lo, hi := spanFloat(x)
		return NewFloatSlider(name, lo, hi, x), check(t, reflect.Float64)
	case [2]float64:
		return NewFloatSlider(name, x[0], x[1], (x[0]+x[1])/2), check(t, reflect.Float64)
	case bool:
		return NewCheckbox(name, x), check(t, reflect.Bool)
	case string:
		return NewText(name, x), check(t, reflect.String)
	case []string:
		if len(x) == 0 {
			return nil, fmt.Errorf("no options")
		}
		return NewDropdown(name, x, x[0]), check(t, reflect.String)
	}
	rv := reflect.ValueOf(c)
	if rv.CanConvert(reflect.TypeOf(0)) && isInt(rv.Kind()) {
		return controlFor(name, t, int(rv.Int()))
	}
	if rv.Kind() == reflect.Float32 {
		return controlFor(name, t, rv.Float())
	}
	return nil, fmt.Errorf("no control for a %T (give a widget, or an int, float64, [2]int, [2]float64, bool, string or []string)", c)
}

func isInt(k reflect.Kind) bool {
	return k >= reflect.Int && k <= reflect.Int64 || k >= reflect.Uint && k <= reflect.Uint64
}

func check(t reflect.Type, k reflect.Kind) error {
	switch {
	case t.Kind() == k, isInt(t.Kind()) && k == reflect.Int, (t.Kind() == reflect.Float32) && k == reflect.Float64:
		return nil
	case t.Kind() == reflect.Interface && reflect.TypeOf(kindZero(k)).Implements(t):
		return nil
	}
	return fmt.Errorf("its control gives a %v, which a %v parameter cannot take", k, t)
}

func kindZero(k reflect.Kind) any {
	switch k {
	case reflect.Int:
		return 0
	case reflect.Float64:
		return 0.0
	case reflect.Bool:
		return false
	}
	return ""
}

func spanInt(v int) (int, int) {
	switch {
	case v > 0:
		return -v, 3 * v
	case v < 0:
		return 3 * v, -v
	}
	return 0, 10
}

func spanFloat(v float64) (float64, float64) {
	switch {
	case v > 0:
		return -v, 3 * v
	case v < 0:
		return 3 * v, -v
	}
	return 0, 1
}

// value is a control's current value as Go sees it.
func value(w Widget) any {
	switch x := w.(type) {
	case *IntSlider:
		return x.Value()
	case *FloatSlider:
		return x.Value()
	case *FloatLogSlider:
		return x.Value()
	case *Play:
		return x.Value()
	case *Checkbox:
		return x.Value()
	case *Text:
		return x.Value()
	case *Label:
		return x.Value()
	case *Dropdown:
		return x.Value()
	case *ToggleButtons:
		return x.Value()
	}
	return nil
}

func convertible(w Widget, t reflect.Type) (reflect.Value, error) {
	v := value(w)
	if v == nil {
		return reflect.Value{}, fmt.Errorf("a %s has no value to pass", w.Base().ModelName())
	}
	rv := reflect.ValueOf(v)
	if !rv.Type().ConvertibleTo(t) {
		return reflect.Value{}, fmt.Errorf("its control gives a %T, which a %v parameter cannot take", v, t)
	}
	return rv.Convert(t), nil
}

func valueOf(w Widget, t reflect.Type) reflect.Value {
	v, err := convertible(w, t)
	if err != nil {
		panic("widgets.Interact: " + err.Error())
	}
	return v
}
