// Package assist answers the Jupyter requests that help while typing:
// complete_request (Complete), inspect_request (Inspect) and
// is_complete_request (IsComplete) for Go cells run by yaegi.
//
// It knows nothing of the interpreter: the engine describes the session
// through a Scope (live global values, imports, sources of earlier cells) and
// hands over the yaegi symbol tables of the packages cells may import.
// Documentation for the standard library and for this module's own packages
// is generated at build time (go generate) and embedded.
package assist

//go:generate go run ./gen

import (
	"reflect"
	"sort"
	"strings"
	"sync"

	"github.com/seed43a1e1ab/gocl/kernel/symbols/stdlib"
)

// Scope is what the assistant needs to know about the running session.
// Any method may return nil.
type Scope interface {
	// Globals returns the user's global variables and constants with their
	// live values, as yaegi's (*interp.Interpreter).Globals does.
	Globals() map[string]reflect.Value
	// Imports maps each package name usable in a cell (alias or default
	// name) to its import path: the pre-imported packages plus the user's
	// own imports.
	Imports() map[string]string
	// Sources returns the text of the cells that ran without a compile
	// error, oldest first. Functions, types and methods are found here,
	// since yaegi's Globals lists only variables and constants.
	Sources() []string
}

// Completion is the answer to a complete_request. Cursor positions count
// Unicode code points, as the Jupyter protocol requires.
type Completion struct {
	Matches     []string
	CursorStart int
	CursorEnd   int
	// Metadata holds "_jupyter_types_experimental": one map per match with
	// its text, kind ("function", "type", "variable", ...) and signature.
	Metadata map[string]any
}

// Symbols is a yaegi symbol table: import path + "/" + package name
// ("fmt/fmt") mapped to exported names and their values. interp.Exports
// values can be passed as they are.
type Symbols = map[string]map[string]reflect.Value

// Assistant answers completion and inspection requests. It is safe for
// concurrent use.
type Assistant struct {
	pkgs   map[string]map[string]reflect.Value // import path -> name -> value
	names  map[string]string                   // package name -> import path of un-imported packages
	paths  []string                            // sorted import paths, for import completion
	mu     sync.Mutex
	parsed map[string]*cellDecls // cache of parsed cell sources
}

// New returns an Assistant that knows the standard library (gocl's
// stdlib.Symbols) and the packages of the extra symbol tables, such as this
// module's kernel/symbols.Symbols.
func New(extra ...Symbols) *Assistant {
	a := &Assistant{
		pkgs:   map[string]map[string]reflect.Value{},
		names:  map[string]string{},
		parsed: map[string]*cellDecls{},
	}
	tables := append([]Symbols{stdlib.Symbols}, extra...)
	for _, t := range tables {
		for key, syms := range t {
			i := strings.LastIndexByte(key, '/')
			if i <= 0 || strings.HasPrefix(key, "github.com/traefik/yaegi/") {
				continue
			}
			path, name := key[:i], key[i+1:]
			m := a.pkgs[path]
			if m == nil {
				m = map[string]reflect.Value{}
				a.pkgs[path] = m
			}
			for n, v := range syms {
				if strings.HasPrefix(n, "_") {
					continue // yaegi's interface wrappers
				}
				m[n] = v
			}
			// Prefer the shortest path for a name: math/rand over math/rand/v2.
			if old, ok := a.names[name]; !ok || len(path) < len(old) {
				a.names[name] = path
			}
		}
	}
	for p := range a.pkgs {
		a.paths = append(a.paths, p)
	}
	sort.Strings(a.paths)
	return a
}

// emptyScope stands in for a nil Scope.
type emptyScope struct{}

func (emptyScope) Globals() map[string]reflect.Value { return nil }
func (emptyScope) Imports() map[string]string        { return nil }
func (emptyScope) Sources() []string                 { return nil }

func orEmpty(sc Scope) Scope {
	if sc == nil {
		return emptyScope{}
	}
	return sc
}
