package engine

import (
	"strings"
	"testing"
)

// TestLoopVarNamedLikeAField runs loops whose variable has the name of a
// field that a keyed struct literal in the body sets: the field name stays,
// the value is the iteration's copy (closures see each iteration's value),
// and no note says that the guard failed. A map literal's key of the same
// name is the variable and is the copy too.
func TestLoopVarNamedLikeAField(t *testing.T) {
	e := newEngine(t)
	ok(t, e, `type item struct{ value string; index int }
type items []*item
type byName map[string]int`)
	for _, c := range []struct{ code, want string }{
		// The type declared in an earlier cell.
		{"var r []*item\nfor _, value := range []string{\"a\", \"b\"} { r = append(r, &item{value: value}) }\nr[0].value + r[1].value", `"ab"`},
		// Declared in the same cell, as a pasted program does.
		{"type it2 struct{ value string }\nvar fs []func() it2\nfor _, value := range []string{\"x\", \"y\"} { fs = append(fs, func() it2 { return it2{value: value} }) }\nfs[0]().value + fs[1]().value", `"xy"`},
		// Elided element types: []*item{{...}}, a named slice type.
		{"var n int\nfor index := 0; index < 3; index++ { l := items{{index: index}}; n += l[0].index }\nn", "3"},
		{"var fs []func() int\nfor index := range 3 { fs = append(fs, func() int { return []item{{index: index}}[0].index }) }\nfs[0]() + fs[1]()*10 + fs[2]()*100", "210"},
		// A map literal's key is the variable: the per-iteration copy.
		{"var fs []func() map[string]int\nfor _, value := range []string{\"p\", \"q\"} { fs = append(fs, func() map[string]int { return map[string]int{value: 1} }) }\nfs[0]()[\"p\"] + fs[1]()[\"q\"]", "2"},
		{"var fs []func() byName\nfor _, value := range []string{\"p\", \"q\"} { value += \"!\"; fs = append(fs, func() byName { return byName{value: 1} }) }\nfs[0]()[\"p!\"] + fs[1]()[\"q!\"]", "2"},
	} {
		got, r := ok(t, e, c.code)
		expect(t, c.code, got, c.want)
		if strings.Contains(r.text("stderr"), "could not be guarded") {
			t.Errorf("%q: the guard failed: %s", c.code, r.text("stderr"))
		}
	}
}
