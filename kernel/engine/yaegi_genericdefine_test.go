package engine

import "testing"

// TestGenericDefines checks that a cell's top-level := of a generic call
// whose type arguments come from another generic call runs (it was
// refused: yaegi cannot compile it in its global scope), with a cell's own
// type, a later cell that uses the name, and a name declared again with
// another type.
func TestGenericDefines(t *testing.T) {
	e := newEngine(t)
	_, r := ok(t, e, `import (
	"fmt"
	"maps"
	"slices"
)

type pt struct{ x int }

s := []int{3, 1, 2}
all := slices.Collect(slices.Values(s))
slices.Sort(all)
ks := slices.Sorted(maps.Keys(map[string]int{"b": 2, "a": 1}))
ps := slices.Collect(slices.Values([]pt{{1}, {2}}))
fmt.Println(all, s, ks, ps)`)
	expect(t, "first cell", r.text("stdout"), "[1 2 3] [3 1 2] [a b] [{1} {2}]\n")
	_, r = ok(t, e, `all = append(all, 4)
ks := slices.Collect(maps.Values(map[string]int{"a": 1}))
fmt.Println(all, ks[0]+1)`)
	expect(t, "second cell", r.text("stdout"), "[1 2 3 4] 2\n")
	// A cell's own generic function with two type parameters, one of
	// them inferred from a func literal.
	_, r = ok(t, e, "import \"strconv\"\nfunc Map[T, U any](xs []T, f func(T) U) []U {\n\tout := make([]U, 0, len(xs))\n"+
		"\tfor _, x := range xs {\n\t\tout = append(out, f(x))\n\t}\n\treturn out\n}\n"+
		"strs := Map([]int{1, 2, 3}, func(i int) string { return strconv.Itoa(i * 10) })\nfmt.Printf(\"%q\\n\", strs)")
	expect(t, "Map", r.text("stdout"), "[\"10\" \"20\" \"30\"]\n")
}
