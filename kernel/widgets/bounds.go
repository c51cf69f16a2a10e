package widgets

import "math"

// clampToBounds brings a value sent for a bounded numeric widget (one with
// min and max: IntSlider, FloatSlider, IntProgress, BoundedIntText, Play,
// the range sliders, ...) into [min, max] before it is converted, as
// ipywidgets' validation does: an IntSlider(0..10) sent 1e19 or 1e308 from
// a front end moves to 10, where a conversion to int first would wrap. A
// FloatLogSlider's bounds are base**min and base**max. Other attributes and
// other widgets pass unchanged.
func (m *Model) clampToBounds(name string, v any) any {
	if name != "value" || m.spec.byName["min"] == nil || m.spec.byName["max"] == nil {
		return v
	}
	m.mu.Lock()
	minV, maxV, baseV := m.state["min"], m.state["max"], m.state["base"]
	m.mu.Unlock()
	lo, okLo := number(minV)
	hi, okHi := number(maxV)
	base, log := number(baseV)
	if !okLo || !okHi {
		return v
	}
	if log && m.spec.byName["base"] != nil {
		lo, hi = math.Pow(base, lo), math.Pow(base, hi)
	}
	clamp := func(x any) any {
		f, ok := x.(float64) // a front end's numbers are float64
		if !ok || math.IsNaN(f) {
			return x
		}
		switch {
		case f < lo:
			return bound(minV, lo)
		case f > hi:
			return bound(maxV, hi)
		}
		return x
	}
	if pair, ok := v.([]any); ok && len(pair) == 2 { // IntRangeSlider, FloatRangeSlider
		return []any{clamp(pair[0]), clamp(pair[1])}
	}
	return clamp(v)
}

// bound is the bound f as the attribute holds it: the int min or max of an
// int widget itself (a float64 could not hold every int), f otherwise.
func bound(attr any, f float64) any {
	if i, ok := attr.(int); ok {
		return i
	}
	return f
}

func number(v any) (float64, bool) {
	switch x := v.(type) {
	case int:
		return float64(x), true
	case float64:
		return x, true
	}
	return 0, false
}
