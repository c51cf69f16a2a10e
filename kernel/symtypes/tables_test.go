package symtypes

import (
	"go/types"
	"sort"
	"strings"
	"testing"
)

// TestImportsEveryTable imports every package of the tables and sources and
// checks that each table symbol is in the package.
func TestImportsEveryTable(t *testing.T) {
	im := newGocl()
	paths := im.Paths()
	sort.Strings(paths)
	if len(paths) < 150 {
		t.Fatalf("only %d packages in the tables: the test sees the wrong tables", len(paths))
	}
	for _, path := range paths {
		pkg, err := im.Import(path)
		if err != nil {
			t.Errorf("Import(%q): %v", path, err)
			continue
		}
		if pkg.Path() != path || !pkg.Complete() {
			t.Errorf("Import(%q) = package %q, complete %v", path, pkg.Path(), pkg.Complete())
		}
		for name := range im.tables[path] {
			if pkg.Scope().Lookup(name) == nil {
				t.Errorf("%s.%s: in the table, not in the package", path, name)
			}
		}
	}
	if _, err := im.Import("no/such/package"); err == nil || !strings.Contains(err.Error(), "not importable") {
		t.Errorf("Import of a package in no table: %v, want an error saying it is not importable", err)
	}
}

// TestTablesMatchToolchain compares every table symbol with the toolchain's
// object of the same name: the same kind of object, the same type and, for
// a named type, the same underlying type and the same exported methods of
// T and *T.
func TestTablesMatchToolchain(t *testing.T) {
	orc := oracle(t)
	im := gocl()
	paths := im.Paths()
	sort.Strings(paths)
	bad := 0
	seen := map[string]bool{}
	for _, path := range paths {
		if path == "github.com/traefik/yaegi" {
			continue // yaegi's own hooks (unsafe's conversion), no Go package
		}
		pkg, err := im.Import(path)
		if err != nil {
			t.Errorf("Import(%q): %v", path, err)
			continue
		}
		want, err := orc.Import(path)
		if err != nil {
			t.Errorf("toolchain Import(%q): %v", path, err)
			continue
		}
		for name := range im.tables[path] {
			if pkg.Scope().Lookup(name) == nil {
				continue // TestImportsEveryTable reports it
			}
			msg := compareObjects(pkg.Scope().Lookup(name), want.Scope().Lookup(name))
			sym := path + "." + name
			_, known := knownDifferences[sym]
			seen[sym] = msg != ""
			switch {
			case msg != "" && !known:
				bad++
				t.Errorf("%s: %s", sym, msg)
			case msg == "" && known:
				t.Errorf("%s: listed in knownDifferences, but it matches the toolchain now: remove it", sym)
			}
		}
	}
	for sym := range knownDifferences {
		if _, ok := seen[sym]; !ok {
			t.Errorf("%s: listed in knownDifferences, but in no table", sym)
		}
	}
	for sym := range untypedConsts {
		if _, ok := seen[sym]; !ok {
			t.Errorf("%s: listed in untypedConsts, but in no table", sym)
		}
	}
	t.Logf("%d packages compared, %d symbols differ beyond the %d known", len(paths), bad, len(knownDifferences))
}

// knownDifferences are the table symbols that are not the toolchain's, on
// purpose: gocl's tables give them so.
var knownDifferences = map[string]string{
	"crypto/hkdf.Key":     "generic: the table holds its instance for hash.Hash",
	"crypto/hkdf.Extract": "generic: the table holds its instance for hash.Hash",
	"crypto/hkdf.Expand":  "generic: the table holds its instance for hash.Hash",
	"crypto/pbkdf2.Key":   "generic: the table holds its instance for hash.Hash",
	"log.Logger":          "gocl's wrapper, whose Fatal methods panic instead of exiting",
	// An unexported field's type is an instance of a generic type of a
	// compiled package (atomic.Pointer[T], unique.Handle[T]): reflect gives
	// only its name and structure, so it is a named type of its own.
	"sync.Map":                       "internal/sync.HashTrieMap[any, any]",
	"database/sql.Rows":              "sync/atomic.Pointer[error]",
	"go/token.FileSet":               "sync/atomic.Pointer[go/token.File]",
	"net/http.CrossOriginProtection": "sync/atomic.Pointer[net/http.ServeMux]",
	"net/netip.Addr":                 "unique.Handle[net/netip.addrDetail]",
}

func compareObjects(got, want types.Object) string {
	if want == nil {
		return "not in the toolchain's package"
	}
	if kind(got) != kind(want) {
		return "a " + kind(got) + ", the toolchain has a " + kind(want)
	}
	if g, w := canon(got.Type()), canon(want.Type()); g != w {
		return "type " + g + ", the toolchain has " + w
	}
	if c, ok := want.(*types.Const); ok {
		gc := got.(*types.Const)
		if gc.Val().ExactString() != c.Val().ExactString() && gc.Val().String() != c.Val().String() {
			return "value " + gc.Val().ExactString() + ", the toolchain has " + c.Val().ExactString()
		}
	}
	tn, ok := want.(*types.TypeName)
	if !ok {
		return ""
	}
	if g, w := canon(got.Type().Underlying()), canon(tn.Type().Underlying()); g != w {
		return "underlying " + g + "\n\tthe toolchain has " + w
	}
	for _, ptr := range []bool{false, true} {
		g, w := methods(got.Type(), ptr), methods(tn.Type(), ptr)
		if g != w {
			return "methods " + g + "\n\tthe toolchain has " + w
		}
	}
	return ""
}

func kind(o types.Object) string {
	switch o.(type) {
	case *types.Const:
		return "const"
	case *types.Var:
		return "var"
	case *types.Func:
		return "func"
	case *types.TypeName:
		return "type"
	}
	return "?"
}

// methods lists the exported methods of t's (or *t's) method set.
func methods(t types.Type, ptr bool) string {
	if _, isIface := t.Underlying().(*types.Interface); isIface && ptr {
		return ""
	}
	if ptr {
		t = types.NewPointer(t)
	}
	ms := types.NewMethodSet(t)
	var out []string
	for i := 0; i < ms.Len(); i++ {
		if o := ms.At(i).Obj(); o.Exported() {
			out = append(out, o.Name()+strings.TrimPrefix(canon(o.Type()), "func"))
		}
	}
	sort.Strings(out)
	return strings.Join(out, "; ")
}

// TestImplementsMatchToolchain checks that each type of the tables (and
// pointer to it) implements each interface of the tables exactly when the
// toolchain says so: that covers the methods reflect does not list
// (go/ast.Expr's exprNode) and the identity of every signature.
func TestImplementsMatchToolchain(t *testing.T) {
	orc := oracle(t)
	im := gocl()
	type pair struct{ got, want types.Type }
	var concrete, ifaces []pair
	var names, inames []string
	paths := im.Paths()
	sort.Strings(paths)
	for _, path := range paths {
		if path == "github.com/traefik/yaegi" {
			continue
		}
		pkg, err := im.Import(path)
		if err != nil {
			t.Fatal(err)
		}
		want, err := orc.Import(path)
		if err != nil {
			t.Fatal(err)
		}
		for name := range im.tables[path] {
			tn, ok := pkg.Scope().Lookup(name).(*types.TypeName)
			if !ok || knownDifferences[path+"."+name] != "" {
				continue
			}
			p := pair{tn.Type(), want.Scope().Lookup(name).Type()}
			if it, ok := tn.Type().Underlying().(*types.Interface); ok {
				if it.NumMethods() > 0 {
					ifaces = append(ifaces, p)
					inames = append(inames, path+"."+name)
				}
			} else {
				concrete = append(concrete, p)
				names = append(names, path+"."+name)
			}
		}
	}
	pairs, yes, bad := 0, 0, 0
	for ci, c := range concrete {
		for ii, i := range ifaces {
			for _, ptr := range []bool{false, true} {
				g := implements(c.got, i.got, ptr)
				w := implements(c.want, i.want, ptr)
				pairs++
				if w {
					yes++
				}
				if g != w && bad < 20 {
					bad++
					star := map[bool]string{true: "*"}[ptr]
					t.Errorf("%s%s implements %s: %v, the toolchain says %v", star, names[ci], inames[ii], g, w)
				}
			}
		}
	}
	t.Logf("%d types against %d interfaces: %d pairs, %d of which implement", len(concrete), len(ifaces), pairs, yes)
}
func implements(typ, iface types.Type, ptr bool) bool {
	if ptr {
		typ = types.NewPointer(typ)
	}
	return types.Implements(typ, iface.Underlying().(*types.Interface))
}
