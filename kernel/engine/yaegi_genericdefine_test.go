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
}
