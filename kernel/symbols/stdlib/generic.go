package stdlib

import (
	"embed"
	"path"
	"sort"
	"strings"
)

// The generic standard packages (cmp, iter, maps, slices) cannot come from
// compiled code: yaegi calls no compiled generic function. Their API is
// written in generic/*.go.txt as Go source that yaegi compiles in the
// interpreter, after Symbols (it then replaces the older sources that yaegi
// loads itself). yaegi v0.16.1 sets the rules those files follow:
//
//   - a type parameter must be inferable from an argument's own type, so
//     slices are []E and maps map[K]V, never S ~[]E (a named slice type
//     comes back as its underlying type);
//   - a constraint from another package is not seen, so each file declares
//     what it needs (slices has its own copy of cmp.Ordered);
//   - no min, max or clear builtins, no range over ints or funcs;
//   - an iterator is returned as its func type; iter.Seq[V] values are
//     assignable to it and back;
//   - each file imports under names no other source of the same package
//     uses (yaegi keeps one import scope per package).
//
//go:embed generic/*.go.txt
var generic embed.FS

// Source is one generic package's interpreted source.
type Source struct {
	Path string // import path
	Code string
}

// Sources returns the interpreted sources of the generic standard packages,
// sorted by import path. Compile each with interp.Interpreter.Compile after
// Use(Symbols).
func Sources() []Source {
	names, err := generic.ReadDir("generic")
	if err != nil {
		panic(err) // embedded: cannot fail
	}
	var out []Source
	for _, n := range names {
		code, err := generic.ReadFile(path.Join("generic", n.Name()))
		if err != nil {
			panic(err)
		}
		out = append(out, Source{Path: strings.TrimSuffix(n.Name(), ".go.txt"), Code: string(code)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}
