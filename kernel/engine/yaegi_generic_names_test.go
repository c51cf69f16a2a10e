package engine

import (
	"strings"
	"testing"
)

// TestGenericNameOfAStandardPackageIsRefused checks that a cell's generic
// function named like one of slices' is refused, and another name is not.
func TestGenericNameOfAStandardPackageIsRefused(t *testing.T) {
	e := newEngine(t)
	err := fails(t, e, "func Reverse[T any](s []T) []T { return s }")
	if err.Name != "CompileError" || !strings.Contains(err.Value, "slices.Reverse") || !strings.Contains(err.Value, "another name") {
		t.Errorf("a generic Reverse: %s", tb(err))
	}
	_, r := ok(t, e, "func reversed[T any](s []T) []T {\n\tout := make([]T, len(s))\n\tfor i, v := range s {\n\t\tout[len(s)-1-i] = v\n\t}\n\treturn out\n}\nfmt.Println(reversed([]int{1, 2, 3}))")
	expect(t, "another name", r.text("stdout"), "[3 2 1]\n")
	ok(t, e, "func Reverse(s []int) []int { return s }") // not generic: no mix-up
}

// TestMissingCompiledGenericSaysWhy checks that a compiled generic of a
// standard package that cells lack is named as such, with the catalog's
// workaround.
func TestMissingCompiledGenericSaysWhy(t *testing.T) {
	e := newEngine(t)
	err := fails(t, e, "import \"sync\"\nf := sync.OnceValue(func() int { return 1 })\nfmt.Println(f())")
	if !strings.Contains(err.Value, "not supported in cells") || !strings.Contains(err.Value, "sync.OnceFunc") {
		t.Errorf("sync.OnceValue: %s", tb(err))
	}
}
