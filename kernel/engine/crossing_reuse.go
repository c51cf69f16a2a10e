// What the crossings keep between cells (see crossing.go): the bare type
// each probe told, so that a cell whose descriptors are those of an earlier
// cell compiles no probe again, and the descriptors themselves.

package engine

import (
	"fmt"
	"go/types"
	"reflect"
	"strings"

	"github.com/seed43a1e1ab/gocl/kernel/cellvalue"
)

// A probe (`func __gocl_cvt7(v T) {}`) tells the resolver the bare type
// yaegi gives a cell's struct type T: its compiled parameter's type. yaegi
// makes that type once per declaration of T, so a later cell need not
// compile the probe again to learn it: what it would learn is the bare type
// known by T's declaration (probeKey), with the cell's descriptor of T.
// That descriptor is learnt anyway when it differs from the one the
// resolver holds (T or a type of its fields has gained a method since, or
// its helpers are other ones): the probe is dropped only when learning it
// again would change nothing. Every cell printing a struct value used to
// compile one more probe under a new number, one more global kept in the
// interpreter for good, which every later compile's frame copies.

// probeKey is the identity of the declaration of a cell's named type n.
func probeKey(n *types.Named) string {
	return fmt.Sprintf("%s@%d", n.Obj().Name(), n.Obj().Pos())
}

// dropKnownProbes removes from the cell's helpers the probes whose bare
// type is known and whose descriptors the resolver holds already (by
// their fingerprints) or holds none of (two types alike in shape).
func (b *descBuilder) dropKnownProbes() {
	keep := b.probes[:0]
	for _, p := range b.probes {
		fp := b.print(p.named)
		b.x.mu.Lock()
		known := b.x.holds(p.key, fp)
		b.x.mu.Unlock()
		if !known {
			keep = append(keep, p)
			continue
		}
		delete(b.helpers, p.helper)
	}
	b.probes = keep
}

// holds reports whether learning again the probe of the declaration key,
// whose descriptor has the fingerprint fp, would leave the resolver as it
// is. x.mu is held.
func (x *crossing) holds(key, fp string) bool {
	raw, ok := x.probeRaw[key]
	if !ok {
		return false
	}
	for _, r := range []struct {
		t  reflect.Type
		fp string
	}{{raw, fp}, {reflect.PointerTo(raw), "*" + fp}} {
		old, ok := x.rawTypes[r.t]
		if !ok || old != nil && x.rawPrints[r.t] != r.fp {
			return false
		}
	}
	return true
}

// print is the fingerprint of descriptor d: everything in it that the
// resolver reads, the helpers its methods call included. Two descriptors of
// one builder's or of two builders' with the same fingerprint behave
// alike.
func (b *descBuilder) print(d *cellvalue.Type) string {
	var s strings.Builder
	seen := map[*cellvalue.Type]int{}
	var walk func(d *cellvalue.Type)
	walk = func(d *cellvalue.Type) {
		if d == nil {
			s.WriteString("-")
			return
		}
		if i, ok := seen[d]; ok {
			fmt.Fprintf(&s, "@%d", i)
			return
		}
		seen[d] = len(seen)
		fmt.Fprintf(&s, "(%d %q %q %d", d.Kind, d.Name, d.String, d.Len)
		if d.Satisfied != nil {
			fmt.Fprintf(&s, " %p", d) // a func: like no other descriptor
		}
		for _, f := range d.Fields {
			fmt.Fprintf(&s, " f%q %t %t %q ", f.Name, f.Exported, f.Embedded, f.Tag)
			walk(f.Type)
		}
		for _, m := range []*cellvalue.Methods{d.Methods, d.PtrMethods} {
			if m == nil {
				s.WriteString(" m-")
				continue
			}
			calls, ok := b.calls[m]
			if !ok {
				calls, ok = b.x.kept.calls[m]
			}
			if !ok {
				calls = fmt.Sprintf("%p", m) // not made by methods: like no other
			}
			fmt.Fprintf(&s, " m%q", calls)
		}
		s.WriteString(" u")
		walk(d.Under)
		s.WriteString(" e")
		walk(d.Elem)
		s.WriteString(" k")
		walk(d.Key)
		s.WriteString(")")
	}
	walk(d)
	return s.String()
}

// The descriptors of a cell's named types are kept too, for the next cells
// checked against the same go/types package (the session checked once,
// kernel/celltypes/cache.go), whose named types are the same objects: a
// descriptor depends on nothing else but the helpers its methods call,
// which stay compiled. Only those of a cell whose helpers all compiled are
// kept (a descriptor of a cell that failed may call a helper that does not
// exist), and that made no descriptor of an interface type: making one
// makes those of every type of the session the resolver does not know yet
// (probeAll), which a kept one would skip. A cell checked against another package (from source, or after the
// session changed) starts them afresh: making a descriptor also records
// its type's method set for the type switches (methodNames), which that
// cell may have recorded otherwise.

// keptDescs are the descriptors kept for the cells checked against pkg.
type keptDescs struct {
	pkg   *types.Package
	descs map[types.Type]*cellvalue.Type
	calls map[*cellvalue.Methods]string // their builders' calls
}

// keepFor starts the kept descriptors afresh unless they are for pkg.
func (x *crossing) keepFor(pkg *types.Package) {
	if x.kept.pkg != pkg {
		x.kept = keptDescs{pkg: pkg}
	}
}

// keptDesc returns the kept descriptor of t, for a cell checked against pkg.
func (x *crossing) keptDesc(pkg *types.Package, t types.Type) (*cellvalue.Type, bool) {
	if x.kept.pkg != pkg || x.kept.descs == nil {
		return nil, false
	}
	d, ok := x.kept.descs[t]
	return d, ok
}

// keep keeps the descriptors of b's named types, once every helper they
// call is compiled: those of the package's level and of the compiled
// packages, which later checks against the same package share (a type
// declared in the cell's function, or an instance of a generic type, is
// made anew by every check).
func (b *descBuilder) keep() {
	k := &b.x.kept
	if k.pkg != b.pkg || b.probedAll {
		return
	}
	for t, d := range b.memo {
		n, ok := t.(*types.Named)
		if !ok || n.TypeArgs().Len() > 0 || n.Obj().Pkg() != nil && n.Obj().Parent() != n.Obj().Pkg().Scope() {
			continue
		}
		if k.descs == nil {
			k.descs, k.calls = map[types.Type]*cellvalue.Type{}, map[*cellvalue.Methods]string{}
		}
		k.descs[t] = d
	}
	for m, c := range b.calls {
		if k.calls != nil {
			k.calls[m] = c
		}
	}
}
