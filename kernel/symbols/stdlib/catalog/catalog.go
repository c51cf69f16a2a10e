// Package catalog says which packages of the Go standard library cells can
// import, how their symbol tables are made, and why the others cannot be
// imported. It is plain data, shared by the table generator, the engine's
// import check and `gocl packages`; it depends on no generated code, so the
// generator still builds when the tables are stale.
package catalog

import (
	"sort"
	"strings"
)

// Refused are the standard packages a cell cannot import, with the reason
// and what to do instead. The engine's import error quotes the reason.
var Refused = map[string]string{
	"embed": "//go:embed is read by the Go compiler, and cells are interpreted: nothing would fill an embed.FS. " +
		"Read the files at run time instead, with os.ReadFile or os.DirFS(dir) (an fs.FS like embed.FS)",
	"unique": "it is all generics backed by the runtime (unique.Make[T]), which yaegi v0.16.1 cannot instantiate " +
		"for compiled code; intern values with a map[T]*T in the cell instead",
	"weak": "weak pointers need the garbage collector's help, which interpreted code cannot get (weak.Pointer[T] " +
		"is generic and compiled); keep an ordinary pointer, or drop it by setting it to nil",
	"runtime/cgo": "cgo needs the Go compiler and a C toolchain; cells are interpreted. Put C calls in a Go package " +
		"built into gocl (as clapi is)",
	"runtime/race":     "it only has effect in a binary built with -race; gocl is not",
	"runtime/coverage": "it only has effect in a binary built with -cover; gocl is not",
	"plugin": "plugin.Open needs a plugin built by the same Go toolchain, with the same version of every " +
		"dependency, as this gocl binary; build the code into gocl instead (kernel/symbols)",
}

// Generic are the standard packages whose generic functions and types come
// from interpreted Go source (../generic/*.go.txt) rather than from compiled
// code, because yaegi cannot call compiled generics.
var Generic = []string{"cmp", "iter", "maps", "slices"}

// Notes are limits of packages that can be imported, shown by `gocl packages`.
var Notes = map[string]string{
	"os":      "os.Exit ends the cell with its status, not the kernel; os.FindProcess of the kernel's own pid stops the cell (NotSupported)",
	"os/exec": "commands run with the rights of the user who started the kernel",
	"log":     "log.Fatal* and a log.New logger's Fatal* log, then end the cell as os.Exit(1) does (the kernel keeps running)",
	"syscall": "Exit and Exec are left out: they would end the kernel; use os.Exit and os/exec",
	"slices": "functions take and return plain []E: a named slice type comes back as []E (convert it back); " +
		"Concat takes two slices or more, without a ... spread; see the limits of generic calls",
	"maps": "functions take and return plain map[K]V: a named map type comes back as map[K]V; see the limits " +
		"of generic calls",
	"cmp":         "cmp.Or takes two values or more, without a ... spread; see the limits of generic calls",
	"iter":        "iter.Pull and iter.Pull2 need the runtime's coroutines: they panic saying so; collect with slices.Collect",
	"errors":      "errors.AsType[E](err) is generic and compiled: each call is rewritten to errors.As(err, &target) with a fresh target",
	"sync":        "the generic OnceValue and OnceValues are compiled: use sync.Once or sync.OnceFunc",
	"sync/atomic": "the generic atomic.Pointer[T] is compiled: use atomic.Value, or a mutex",
	"reflect": "the generic TypeFor and TypeAssert are compiled: use reflect.TypeOf((*T)(nil)).Elem(); reflect sees " +
		"interpreted types as yaegi builds them (struct fields may be renamed)",
	"math/rand/v2":  "the generic rand.N is compiled: use rand.IntN, rand.Int64N (time.Duration(rand.Int64N(int64(d))))",
	"database/sql":  "the generic sql.Null[T] is compiled: use sql.NullString, sql.NullInt64...",
	"hash/maphash":  "the generic Comparable and WriteComparable are compiled: hash a string or []byte",
	"runtime":       "the generic AddCleanup is compiled: use runtime.SetFinalizer",
	"crypto/hkdf":   "Extract, Expand and Key take a func() hash.Hash (sha256.New); wrap another: func() hash.Hash { return sha3.New256() }",
	"crypto/pbkdf2": "Key takes a func() hash.Hash (sha256.New); wrap another: func() hash.Hash { return sha3.New256() }",
	"unsafe":        "Pointer, Sizeof, Alignof, Offsetof and Add, as yaegi provides them",
}

// GenericLimits are what yaegi v0.16.1's generics cannot do, for every
// generic call in a cell (slices, maps, cmp, or the cell's own generic
// functions). Each fails with a CompileError or a panic, never a value.
var GenericLimits = []string{
	"x := slices.Clone(s) as a top-level statement crashes yaegi's compiler: declare x, then assign it " +
		"(var x []int; x = slices.Clone(s)), or call it inside a func",
	"a slice or map of a compiled type (strings.Fields(s), os.Args, http.Header) passed to a generic func " +
		"crashes yaegi's compiler: declare it with its type first (var w []string; w = strings.Fields(s))",
	"untyped float constants as arguments fail (cmp.Compare(1.5, 2.5) panics): type them (float64(1.5))",
	"a ... parameter must get at least one value: slices.Insert(s, i) with nothing to insert crashes yaegi",
	"explicit instantiation takes the element type: slices.Index[int](s, v), not slices.Index[[]int, int]",
}

// GenericNameClash is a yaegi v0.16.1 bug that would give wrong answers:
// it caches generic instances by function name and type arguments,
// whatever the package. The engine refuses such a cell (yaegi_generic_names.go).
const GenericNameClash = "a cell's own generic function with the name of a slices, maps, cmp or iter function " +
	"(Reverse, Max, Index...) is refused with a compile error: yaegi would mix it up with that function and run " +
	"the first one instantiated for both. Give your generic functions other names (reversed, MaxOf)"

// Spec says how to extract one package's table.
type Spec struct {
	Path string
	// Exclude are regular expressions of symbols left out of the table.
	Exclude []string
	// Arches, when set, are the GOOS/GOARCH pairs ("linux/amd64") the table
	// is generated for, one file each, because the package's API differs
	// between them. Empty means one table for every platform.
	Arches []string
}

// Special are the packages whose table is not extracted whole, or once.
var Special = map[string]Spec{
	"syscall": {Path: "syscall", Exclude: []string{"^Exit$", "^Exec$"}, Arches: []string{"linux/amd64", "linux/arm64"}},
}

// Skipped reports whether a standard import path gets no extracted table:
// internal and vendored packages, and the refused ones.
func Skipped(path string) bool {
	if _, ok := Refused[path]; ok {
		return true
	}
	for _, part := range strings.Split(path, "/") {
		if part == "internal" || part == "vendor" {
			return true
		}
	}
	return false
}

// Extracted returns the specs of the packages among std (the output of `go
// list std`) whose tables are extracted, sorted by path.
func Extracted(std []string) []Spec {
	var specs []Spec
	for _, p := range std {
		if Skipped(p) {
			continue
		}
		if s, ok := Special[p]; ok {
			specs = append(specs, s)
			continue
		}
		specs = append(specs, Spec{Path: p})
	}
	sort.Slice(specs, func(i, j int) bool { return specs[i].Path < specs[j].Path })
	return specs
}
