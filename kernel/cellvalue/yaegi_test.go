package cellvalue_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/seed43a1e1ab/gocl/kernel/cellvalue"
	"github.com/traefik/yaegi/interp"
)

// TestRealYaegiValuesWithoutResolver hands the package what yaegi v0.16.1
// really gives compiled code (raw StructOf values, interp._error,
// interp.valueInterface) with no Resolver: the output may lack the cell's
// type names, but it never shows the interpreter's internals, and wrappers
// still answer with their interpreted methods.
func TestRealYaegiValuesWithoutResolver(t *testing.T) {
	cellvalue.SetResolver(nil)
	defer cellvalue.SetResolver(theFake.resolve)
	var got [][]any
	i := interp.New(interp.Options{})
	if err := i.Use(interp.Exports{"probe/probe": {"Probe": reflect.ValueOf(func(a ...any) { got = append(got, a) })}}); err != nil {
		t.Fatal(err)
	}
	_, err := i.Eval(`
import "probe"
type Level int
func (l Level) String() string { return "lvl" }
type QE struct{ Q string }
func (q *QE) Error() string { return "qe " + q.Q }
type T struct { A int; E error; X any }
func run() {
	var e error = &QE{"q"}
	var x any = Level(3)
	probe.Probe(e, x, T{A: 1, E: &QE{"in"}, X: Level(2)}, []any{Level(1)}, map[string]any{"k": Level(1)})
}`)
	if err == nil {
		_, err = i.Eval("run()")
	}
	if err != nil {
		t.Fatal(err)
	}
	// The same raw value in a box and in yaegi's wrapper is the same error.
	wrapper := got[0][0].(error)
	rawQE := reflect.ValueOf(wrapper).Field(0).Interface()
	qeType := &cellvalue.Type{Kind: cellvalue.Pointer, String: "*main.QE",
		Methods: &cellvalue.Methods{Error: func(reflect.Value) string { return "qe q" }}}
	b := cellvalue.Box(rawQE, qeType).(error)
	if !cellvalue.Is(cellvalue.Errorf("w: %w", b), wrapper) || !cellvalue.Is(cellvalue.Errorf("w: %w", wrapper), b) {
		t.Error("a box and a yaegi wrapper of the same raw pointer are not the same error")
	}
	if got := cellvalue.Sprintf("%+v %T", cellvalue.Box(wrapper, qeType), cellvalue.Box(wrapper, qeType)); got != "qe q *main.QE" {
		t.Errorf("a boxed wrapper prints %q", got)
	}
	other := cellvalue.Box(reflect.New(reflect.TypeOf(rawQE).Elem()).Interface(), qeType).(error)
	if cellvalue.Is(other, wrapper) {
		t.Error("a box of another pointer matched the wrapper")
	}
	want := []string{"qe q", "3", "{1 qe in 2}", "[1]", "map[k:1]"}
	for n, a := range got[0] {
		for _, verb := range []string{"%v", "%+v", "%#v", "%s"} {
			s := cellvalue.Sprintf(verb, a)
			if strings.Contains(s, "node") || strings.Contains(s, "typ_") || strings.Contains(s, "IValue") || strings.Contains(s, "WError") {
				t.Errorf("arg %d %s shows yaegi internals: %s", n, verb, s)
			}
		}
		if s := cellvalue.Sprint(a); s != want[n] {
			t.Errorf("arg %d: %q, want %q", n, s, want[n])
		}
	}
}
