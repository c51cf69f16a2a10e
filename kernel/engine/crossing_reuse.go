// What the crossings keep between cells (see crossing.go): the bare type
// each probe told, so that a cell whose descriptors are those of an earlier
// cell compiles no probe again.

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
		print := b.print(p.named)
		b.x.mu.Lock()
		known := b.x.holds(p.key, print)
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
// whose descriptor has the fingerprint print, would leave the resolver as
// it is. x.mu is held.
func (x *crossing) holds(key, print string) bool {
	raw, ok := x.probeRaw[key]
	if !ok {
		return false
	}
	for _, r := range []struct {
		t     reflect.Type
		print string
	}{{raw, print}, {reflect.PointerTo(raw), "*" + print}} {
		old, ok := x.rawTypes[r.t]
		if !ok || old != nil && x.rawPrints[r.t] != r.print {
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
