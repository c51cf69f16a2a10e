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
// from interpreted Go source (package generic) rather than from compiled
// code, because yaegi cannot call compiled generics.
var Generic = []string{"cmp", "iter", "maps", "slices"}

// Notes are limits of packages that can be imported, shown by `gocl packages`.
var Notes = map[string]string{
	"os":      "os.Exit ends the cell with its status, not the kernel; os.FindProcess of the kernel's own pid fails",
	"os/exec": "commands run with the rights of the user who started the kernel",
	"log":     "log.Fatal* and a log.New logger's Fatal* panic instead of exiting (the kernel keeps running)",
	"syscall": "Exit and Exec are left out: they would end the kernel; use os.Exit and os/exec",
	"slices": "functions take and return plain []E (a named slice type comes back as []E: convert it back); " +
		"Concat needs two slices or more, no s... spread; a call must pass at least one value to a ... " +
		"parameter (slices.Insert(s, i) alone crashes yaegi); a slice of a compiled type (strings.Fields(s), " +
		"os.Args) must be declared first: var w []string = strings.Fields(s)",
	"maps": "functions take and return plain map[K]V; a map of a compiled type (http.Header) must be declared " +
		"first: var m map[string][]string = h",
	"cmp": "cmp.Or needs two values or more; an untyped constant next to a typed value must be typed: " +
		"cmp.Compare(x, 1.0) with x float64 fails, cmp.Compare(x, float64(1)) works",
	"iter":        "iter.Pull and iter.Pull2 need the runtime's coroutines: they panic saying so; collect with slices.Collect",
	"errors":      "errors.AsType is generic and compiled: use errors.As(err, &target)",
	"sync":        "the generic OnceValue and OnceValues are compiled: use sync.Once or sync.OnceFunc",
	"sync/atomic": "the generic atomic.Pointer[T] is compiled: use atomic.Value, or a mutex",
	"reflect":     "reflect sees interpreted types as yaegi builds them (struct fields may be renamed)",
	"unsafe":      "Pointer, Sizeof, Alignof, Offsetof and Add, as yaegi provides them",
}

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
