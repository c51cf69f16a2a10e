// gocl patch: this file is gocl's own (see PATCHES.md, "One variable, a call of several results").

package interp

// checkOneValue refuses `x := f()`, `x = f()` and `var x = f()` where f
// returns more than one value, as Go does ("assignment mismatch"), and such
// a call as one source of several (`a, b := g, f()`). yaegi
// compiled them and assigned f's first result: a program Go refuses printed
// a value, and gocl's own rewrites, which bind a go or defer statement's
// arguments to variables and rely on such a binding failing to compile,
// printed a wrong answer (`go fmt.Println(two())` printed "1").
func checkOneValue(n, src *node) error {
	if n.nleft != n.nright || !isCall(src) || len(src.child) == 0 || src.child[0].typ == nil {
		return nil
	}
	k := src.child[0].typ.numOut()
	if k <= 1 {
		return nil
	}
	name := src.child[0].name()
	if c := src.child[0]; name == "" && c.kind == selectorExpr && len(c.child) == 2 {
		name = c.child[1].ident // a method: T{}.M()
	}
	if n.nleft > 1 {
		return src.cfgErrorf("multiple-value %s() (%d values) in single-value context", name, k)
	}
	return n.cfgErrorf("assignment mismatch: 1 variable but %s() returns %d values", name, k)
	return nil
}
