// Package symtypes makes go/types packages from yaegi symbol tables, so that
// cells can be type-checked on a machine without a Go toolchain.
//
// yaegi knows a compiled package only by its symbol table (interp.Exports:
// symbol name to reflect.Value), and the generic standard packages only by
// the Go source it interprets. An Importer turns both into *types.Package
// values: a table's types are rebuilt from reflect (named types with their
// methods, structs, funcs, interfaces...), its funcs, vars and constants
// become objects of those types, and a generic source is type-checked by
// go/types itself, importing through the same Importer.
//
// What reflect does not keep cannot be recovered: parameter names, whether
// an interface was written with embedded interfaces, aliases inside
// signatures (byte is written for every uint8, any for every empty
// interface), and the exact kind of the few untyped constants that yaegi's
// extract records as typed values (see constants.go). Types are identical
// to the toolchain's in go/types' sense; only such spellings differ.
package symtypes

import (
	"fmt"
	"go/token"
	"go/types"
	"reflect"
	"strings"
	"sync"
)

// Source is the Go source of a package that yaegi interprets rather than
// calls compiled (the generic standard packages). It has the fields of
// stdlib.Source, so a conversion symtypes.Source(s) turns one into the other.
type Source struct {
	Path string // import path
	Code string // one file of Go source
}

// Importer is a types.Importer (and types.ImporterFrom) for the packages of
// yaegi symbol tables and interpreted sources. It is safe for concurrent use;
// each package is built once, on its first import, and then cached.
type Importer struct {
	mu      sync.Mutex
	tables  map[string]map[string]reflect.Value // import path -> symbols
	names   map[string]string                   // import path -> package name, from the table keys
	sources map[string][]string                 // import path -> files
	fset    *token.FileSet

	pkgs  map[string]*types.Package // every package made so far, complete or not
	state map[string]loadState      // import paths being or done loading
	errs  map[string]error          // import paths that failed, and why
	typs  map[reflect.Type]types.Type
	// unexported lists, per package path, the interfaces of its table that
	// have unexported methods (see unexported.go).
	unexported map[string][]reflect.Type
	// adopted holds the unexported types that stand, in a table, for an
	// exported type of the table's package (see adopt).
	adopted map[reflect.Type]adoptee
	// instantiating holds the generic instances being matched (instance).
	instantiating map[reflect.Type]bool
}

type loadState int

const (
	loading loadState = iota + 1
	loaded
)

// New returns an importer for the packages in tables (keys
// "importpath/pkgname", as interp.Exports has them; the key "." and symbol
// names starting with "_" are yaegi's own and skipped) and for the
// interpreted sources, whose objects win over a table's objects of the same
// name and path. Later tables add to earlier ones.
func New(tables []map[string]map[string]reflect.Value, sources []Source) *Importer {
	im := &Importer{
		tables:     map[string]map[string]reflect.Value{},
		names:      map[string]string{},
		sources:    map[string][]string{},
		fset:       token.NewFileSet(),
		pkgs:       map[string]*types.Package{},
		state:      map[string]loadState{},
		errs:       map[string]error{},
		typs:       map[reflect.Type]types.Type{},
		unexported: map[string][]reflect.Type{},

		instantiating: map[reflect.Type]bool{},
		adopted:       map[reflect.Type]adoptee{},
	}
	im.addTables(tables)
	for _, s := range sources {
		im.sources[s.Path] = append(im.sources[s.Path], s.Code)
	}
	im.adopt(im.tables)
	return im
}

// Add adds the packages of tables, keyed as New's, to the importer: the
// tables of compiled cells, made after it. A package that was imported
// cannot change: Add fails for a table of its path and adds nothing.
func (im *Importer) Add(tables ...map[string]map[string]reflect.Value) error {
	im.mu.Lock()
	defer im.mu.Unlock()
	for _, table := range tables {
		for key := range table {
			if path, _, ok := splitKey(key); ok && im.state[path] != 0 {
				return fmt.Errorf("add the symbols of %s: the package was imported already and cannot change; give the new symbols a new import path", path)
			}
		}
	}
	added := im.addTables(tables)
	im.adopt(added)
	return nil
}

// splitKey splits a table key "importpath/pkgname".
func splitKey(key string) (path, name string, ok bool) {
	i := strings.LastIndexByte(key, '/')
	if i <= 0 || i == len(key)-1 {
		return "", "", false // "." (yaegi's MapTypes) or malformed
	}
	return key[:i], key[i+1:], true
}

// addTables merges tables into im.tables and returns the symbols it added,
// by import path.
func (im *Importer) addTables(tables []map[string]map[string]reflect.Value) map[string]map[string]reflect.Value {
	added := map[string]map[string]reflect.Value{}
	for _, table := range tables {
		for key, syms := range table {
			path, name, ok := splitKey(key)
			if !ok {
				continue
			}
			im.names[path] = name
			dst := im.tables[path]
			if dst == nil {
				dst = map[string]reflect.Value{}
				im.tables[path] = dst
			}
			if added[path] == nil {
				added[path] = map[string]reflect.Value{}
			}
			for sym, v := range syms {
				if !strings.HasPrefix(sym, "_") && v.IsValid() {
					dst[sym] = v
					added[path][sym] = v
				}
			}
		}
	}
	for path := range added {
		delete(im.unexported, path)
	}
	return added
}

type adoptee struct{ path, name string }

// adopt finds the table types that are an unexported type of a package in
// no table: gocl's wrappers (log.Logger is stdlib.logLogger, whose Fatal
// methods panic instead of exiting). Such a type is made as the table's
// type, so that cells and their errors see log.Logger.
func (im *Importer) adopt(tables map[string]map[string]reflect.Value) {
	for path, syms := range tables {
		for name, v := range syms {
			t := v.Type()
			if v.CanAddr() || t.Kind() != reflect.Pointer || !v.IsNil() {
				continue
			}
			e := t.Elem()
			if e.Name() == "" || e.PkgPath() == path || token.IsExported(e.Name()) {
				continue
			}
			if _, inTable := im.tables[e.PkgPath()]; !inTable {
				im.adopted[e] = adoptee{path, name}
			}
		}
	}
}

// Paths returns the import paths the importer can import, in no order.
func (im *Importer) Paths() []string {
	im.mu.Lock()
	defer im.mu.Unlock()
	seen := map[string]bool{}
	var out []string
	for p := range im.tables {
		seen[p] = true
		out = append(out, p)
	}
	for p := range im.sources {
		if !seen[p] {
			out = append(out, p)
		}
	}
	return out
}

// Import returns the package of path, building it on first use. It fails for
// a path that is in no table and no source.
func (im *Importer) Import(path string) (*types.Package, error) {
	im.mu.Lock()
	defer im.mu.Unlock()
	return im.load(path)
}

// ImportFrom is Import: symbol tables know no directories or vendoring.
func (im *Importer) ImportFrom(path, dir string, mode types.ImportMode) (*types.Package, error) {
	return im.Import(path)
}

// locked is the importer that the type-checker of a source uses: it runs
// with im.mu already held.
type locked struct{ im *Importer }

func (l locked) Import(path string) (*types.Package, error) { return l.im.load(path) }

// load builds the package of path, with im.mu held.
func (im *Importer) load(path string) (*types.Package, error) {
	if path == "unsafe" {
		return types.Unsafe, nil
	}
	switch im.state[path] {
	case loaded:
		return im.pkgs[path], im.errs[path]
	case loading:
		return nil, fmt.Errorf("import cycle: %s imports itself, through the generic sources", path)
	}
	_, inTable := im.tables[path]
	_, inSource := im.sources[path]
	if !inTable && !inSource {
		return nil, fmt.Errorf("package %s is not importable in cells: it is in no symbol table (see `gocl packages`)", path)
	}
	im.state[path] = loading
	pkg, err := im.build(path)
	im.state[path] = loaded
	if err != nil {
		im.errs[path] = err
	}
	return pkg, err
}

// build checks the sources of path, if any, then adds the table's symbols
// that the sources do not declare.
func (im *Importer) build(path string) (*types.Package, error) {
	pkg := im.pkgs[path]
	if codes := im.sources[path]; len(codes) > 0 {
		var err error
		if pkg, err = im.check(path, codes); err != nil {
			return nil, err
		}
	}
	if pkg == nil {
		pkg = im.pkg(path)
	}
	scope := pkg.Scope()
	for name, v := range im.tables[path] {
		if scope.Lookup(name) == nil { // else the source's object wins
			scope.Insert(im.object(pkg, name, v))
		}
	}
	pkg.MarkComplete()
	return pkg, nil
}

// pkg returns the package of path, making an empty one on first use. Types
// from packages in no table (internal packages, unexported fields) live in
// such packages, which are never complete.
func (im *Importer) pkg(path string) *types.Package {
	if p := im.pkgs[path]; p != nil {
		return p
	}
	if len(im.sources[path]) > 0 && im.state[path] == 0 {
		// A table type refers to a type of a generic source (iter.Seq):
		// check the source first, so that the type is the source's.
		if p, err := im.load(path); err == nil {
			return p
		}
		if p := im.pkgs[path]; p != nil {
			return p // the source failed: its types are what it got to
		}
	}
	name := im.names[path]
	if name == "" {
		name = guessName(path)
	}
	p := types.NewPackage(path, name)
	im.pkgs[path] = p
	return p
}

// guessName returns the usual package name of an import path with no table:
// its last element, or the one before a major version suffix.
func guessName(path string) string {
	elems := strings.Split(path, "/")
	name := elems[len(elems)-1]
	if len(elems) > 1 && len(name) > 1 && name[0] == 'v' && strings.Trim(name[1:], "0123456789") == "" {
		name = elems[len(elems)-2]
	}
	if i := strings.IndexAny(name, ".-"); i > 0 {
		name = name[:i]
	}
	return name
}
