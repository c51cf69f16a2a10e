// gocl patch: this file is gocl's own (see PATCHES.md, "Method sets").

package interp

// ptrRecvMethod returns the name of a method that the interface it requires
// and that a value of type t has only through a pointer: declared with a
// pointer receiver on t, or promoted from a field t embeds by value. Go
// does not let such a t be assigned to it ("V does not implement Abser
// (method Abs has pointer receiver)"); yaegi's method set of a named type
// holds both kinds of methods, so it accepted the assignment and ran the
// method on a copy. It returns "" when there is none, or when t is a
// pointer, an interface or a compiled type (whose method set reflect gives).
func ptrRecvMethod(t, it *itype) string {
	if t == nil || it == nil || t.cat == ptrT || t.cat == valueT || isInterface(t) || !isInterface(it) {
		return ""
	}
	need := it.methods()
	resolved := map[string]bool{}
	seen := map[*itype]bool{}
	var find func(typ *itype) string
	find = func(typ *itype) string {
		if typ == nil || seen[typ] {
			return ""
		}
		seen[typ] = true
		for _, m := range typ.method {
			if _, ok := need[m.ident]; !ok || resolved[m.ident] {
				continue
			}
			if isPtrRecvMethod(m) {
				return m.ident
			}
			resolved[m.ident] = true
		}
		switch typ.cat {
		case linkedT:
			return find(typ.val)
		case structT:
			for _, f := range typ.field {
				if f.embed && f.typ != nil && f.typ.cat != ptrT {
					if name := find(f.typ); name != "" {
						return name
					}
				}
			}
		}
		return ""
	}
	return find(t)
}

// isPtrRecvMethod reports whether the method declaration m has a pointer
// receiver.
func isPtrRecvMethod(m *node) bool {
	if m == nil || m.kind != funcDecl || len(m.child) == 0 || len(m.child[0].child) == 0 {
		return false
	}
	rtn := m.child[0].child[0].lastChild()
	return rtn != nil && rtn.kind == starExpr
}

// appendPtrRecv returns Go's error for append(s, v...) where s is a slice
// of an interface that a value v implements only through a pointer: the
// arguments of append are checked against the slice's element type as
// reflect sees it, which for an interface the program declares has no
// methods.
func appendPtrRecv(slice *itype, args []param, ellipsis bool) error {
	if ellipsis {
		return nil
	}
	for slice != nil && slice.cat == linkedT {
		slice = slice.val
	}
	if slice == nil || slice.cat != sliceT || slice.val == nil || !isInterface(slice.val) {
		return nil
	}
	for _, a := range args {
		t := a.Type()
		if m := ptrRecvMethod(t, slice.val); m != "" && a.nod != nil {
			return a.nod.cfgErrorf("cannot use %s as %s value: %s does not implement %s (method %s has pointer receiver)", t.id(), slice.val.id(), t.id(), slice.val.id(), m)
		}
	}
	return nil
}

// goclPtrRecvAssert reports whether the assertion n of a value of type t to
// the interface it must fail because t has one of its methods only through
// a pointer (ptrRecvMethod); without a comma-ok it panics as Go does. yaegi
// compared the method lists alone, which for a named type hold both
// receiver kinds, so `any(V{}).(Incer)` with `func (v *V) Inc()` succeeded.
func goclPtrRecvAssert(n *node, t, it *itype, withOk bool) bool {
	name := ptrRecvMethod(t, it)
	if name == "" {
		return false
	}
	if !withOk {
		panic(n.cfgErrorf("interface conversion: %s is not %s: missing method %s", t.id(), it.id(), name))
	}
	return true
}
