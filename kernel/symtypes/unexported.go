package symtypes

import (
	"go/types"
	"reflect"
)

// reflect lists no unexported method of a concrete type, but an interface
// with unexported methods (go/ast.Expr's exprNode, testing.TB's private) is
// only implemented by types that have them. reflect's Implements does see
// them, so a named type gets the unexported methods of each interface of its
// package's table that it implements.

// addUnexported adds to n, the type of t, the unexported methods of the
// interfaces of t's package that t or *t implements.
func (im *Importer) addUnexported(n *types.Named, t reflect.Type) {
	for _, it := range im.unexportedIfaces(t.PkgPath()) {
		var recv types.Type
		switch {
		case t.Implements(it):
			recv = n
		case reflect.PointerTo(t).Implements(it):
			recv = types.NewPointer(n)
		default:
			continue
		}
		for i := 0; i < it.NumMethod(); i++ {
			m := it.Method(i)
			if m.PkgPath == "" || hasNamedMethod(n, m.Name) {
				continue
			}
			mpkg := im.pkg(m.PkgPath)
			sig := im.signature(m.Type, types.NewVar(nopos, mpkg, "", recv), 0)
			n.AddMethod(types.NewFunc(nopos, mpkg, m.Name, sig))
		}
	}
}

// unexportedIfaces returns the interfaces of the table of path that have
// unexported methods.
func (im *Importer) unexportedIfaces(path string) []reflect.Type {
	if list, ok := im.unexported[path]; ok {
		return list
	}
	var list []reflect.Type
	for _, v := range im.tables[path] {
		t := v.Type()
		if v.CanAddr() || t.Kind() != reflect.Pointer || !v.IsNil() || t.Elem().Kind() != reflect.Interface {
			continue
		}
		it := t.Elem()
		for i := 0; i < it.NumMethod(); i++ {
			if it.Method(i).PkgPath != "" {
				list = append(list, it)
				break
			}
		}
	}
	im.unexported[path] = list
	return list
}

func hasNamedMethod(n *types.Named, name string) bool {
	for i := 0; i < n.NumMethods(); i++ {
		if n.Method(i).Name() == name {
			return true
		}
	}
	return false
}
