// gocl patch: this file is gocl's own (see PATCHES.md, "Go 1.22 loop variables").

package interp

import "reflect"

// perIterationVars gives a three-clause for statement n (for init; cond; post)
// Go 1.22's loop variables: each iteration has its own copy of the variables
// the init statement declares, made before the post statement from the
// previous iteration's value. yaegi keeps one variable for the whole loop,
// so a pointer to it (&i) or a closure made in the body saw its last value.
//
// A closure copies its defining frame's slots (getFunc), and &i is the
// address of the slot's value, so giving the slot a new value before post
// is enough. It costs an allocation per iteration, so it is done only for a
// variable the loop takes the address of or refers to from a func literal.
func perIterationVars(n, init, post *node) {
	if init.kind != defineStmt || post == nil || post.start == nil {
		return
	}
	type slot struct{ level, index int }
	var slots []slot
	for _, c := range init.child[:init.nleft] {
		if c.kind != identExpr || c.ident == "_" || !loopShares(n, c.ident) {
			continue
		}
		slots = append(slots, slot{c.level, c.findex})
	}
	if len(slots) == 0 {
		return
	}
	start := post.start
	gen := start.gen
	start.gen = func(m *node) {
		gen(m)
		exec := m.exec
		m.exec = func(f *frame) bltn {
			for _, s := range slots {
				d := getFrame(f, s.level).data
				v := reflect.New(d[s.index].Type()).Elem()
				v.Set(d[s.index])
				d[s.index] = v
			}
			return exec(f)
		}
	}
}

// loopShares reports whether the for statement n takes the address of the
// variable named name (&name, &name.f, &name[i]) or refers to it from a func
// literal. Names are compared, not symbols: a shadowing variable of the same
// name only costs a needless copy.
func loopShares(n *node, name string) bool {
	found := false
	for _, c := range n.child[1:] {
		c.Walk(func(m *node) bool {
			if found {
				return false
			}
			switch m.kind {
			case addressExpr:
				r := m.child[0]
				for r.kind == parenExpr || r.kind == selectorExpr || r.kind == indexExpr {
					r = r.child[0]
				}
				found = r.kind == identExpr && r.ident == name
			case funcLit:
				m.Walk(func(k *node) bool {
					found = found || k.kind == identExpr && k.ident == name
					return !found
				}, nil)
				return false
			}
			return !found
		}, nil)
	}
	return found
}
