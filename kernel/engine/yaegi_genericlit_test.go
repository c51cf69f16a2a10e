package engine

import "testing"

// TestGenericLiteralAtTopLevel checks a cell's top-level variable made from
// a composite literal of a generic type with methods: the statements after
// it run (yaegi stopped the cell there without a word).
func TestGenericLiteralAtTopLevel(t *testing.T) {
	e := newEngine(t)
	ok(t, e, "type Map[K comparable, V any] struct {\n\tm map[K]V\n}\n\nfunc (m Map[K, V]) Has(k K) bool {\n\t_, ok := m.m[k]\n\treturn ok\n}\n")
	_, r := ok(t, e, "fmt.Println(\"a\")\nm := Map[string, float64]{}\nfmt.Println(\"b\", m.Has(\"x\"))\nvar n = Map[int, int]{m: map[int]int{1: 2}}\nfmt.Println(\"c\", n.Has(1))")
	expect(t, "the cell's output", r.text("stdout"), "a\nb false\nc true\n")
	_, r = ok(t, e, "fmt.Println(m.Has(\"x\"), n.Has(1), n.m)")
	expect(t, "a later cell", r.text("stdout"), "false true map[1:2]\n")
}
