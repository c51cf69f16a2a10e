package engine

import (
	"go/ast"
	"go/token"
)

// This file decides which of a statement's sites (yaegi_bounds_walk.go)
// get a check: those that no risk may precede, whose checks come in the
// order Go's compiler evaluates the expressions.

// allowed returns the sites that every risk follows, in evaluation order.
// A site that some risk may precede gets no check, so its own panic (then
// without numbers) may come first: it counts as a risk for the others.
func (w *walker) allowed() []site {
	if w.opaque {
		return nil
	}
	risks := w.risks
	ok := make([]bool, len(w.sites))
	for i := range ok {
		ok[i] = true
	}
	for i, s := range w.sites {
		for j, o := range w.sites {
			if j > i && w.before(o, s) || j != i && w.apartFrom(o, s) {
				ok[i] = false // the checks would test s first
			}
		}
	}
	for i, s := range w.sites {
		if !ok[i] {
			risks = append(risks, s)
		}
	}
	for changed := true; changed; {
		changed = false
		for i, s := range w.sites {
			if !ok[i] {
				continue
			}
			for _, r := range risks {
				if !follows(r, s) {
					ok[i], changed = false, true
					risks = append(risks, s)
					break
				}
			}
		}
	}
	var out []site
	for i, s := range w.sites {
		if ok[i] {
			out = append(out, s)
		}
	}
	return out
}

// before reports whether Go's compiler may evaluate site o before site s:
// o is in (or is) an expression it evaluates early that does not hold s,
// and s is in no such expression evaluated before that one.
func (w *walker) before(o, s site) bool {
	ho, hs := w.firstEarly(o, s), w.firstEarly(s, o)
	if ho < 0 {
		return false
	}
	return hs < 0 || ho < hs
}

// firstEarly returns the order of the outermost early expression on a's
// path that is not on b's, or -1.
func (w *walker) firstEarly(a, b site) int {
	for _, n := range a.path {
		if at, ok := w.early[n]; ok && !onPath(n, b.path) {
			return at
		}
	}
	return -1
}

// apartFrom reports whether o and s are in different right-hand sides of
// a tuple assignment.
func (w *walker) apartFrom(o, s site) bool {
	for _, n := range o.path {
		if w.apart[n] {
			return !onPath(n, s.path)
		}
	}
	return false
}

func onPath(n ast.Node, path []ast.Node) bool {
	for _, p := range path {
		if p == n {
			return true
		}
	}
	return false
}

// follows reports whether Go evaluates r after s: r is an operation s is an
// operand of, r is in the right operand of an && or || whose left operand
// holds s, or r is in a later step of a seqNode.
func follows(r, s site) bool {
	pr, ps := r.path, s.path
	k := 0
	for k < len(pr) && k < len(ps) && pr[k] == ps[k] {
		k++
	}
	if k == len(pr) {
		return true // r is s or holds it
	}
	if k == len(ps) || k == 0 {
		return false
	}
	switch lca := pr[k-1].(type) {
	case *ast.BinaryExpr:
		return (lca.Op == token.LAND || lca.Op == token.LOR) && ps[k] == lca.X && pr[k] == lca.Y
	case *seqNode:
		return pr[k].(*stepNode).i > ps[k].(*stepNode).i
	}
	return false
}
