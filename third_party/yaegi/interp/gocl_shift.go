// gocl patch: this file is gocl's own (see PATCHES.md, "Untyped shifts").

package interp

// retypeUntypedShift gives t to a non-constant shift of an untyped constant
// (1 << uint(j)) that the context converts to t, as Go does: in
// `w & (1 << uint(j))` with w a uint64, the shift is a uint64. yaegi
// changed the type of the outer node only (the parenthesis), so the shift
// still computed an int, and the & read it with Value.Uint ("call of
// reflect.Value.Uint on int Value"). The shift's own type changes here;
// its frame slot, typed when the shift was compiled, changes in
// retypeShiftSlots, which has the current scope.
func retypeUntypedShift(n *node, t *itype) {
	for n.kind == parenExpr && len(n.child) == 1 {
		n = n.child[0]
		n.typ = t
	}
}

// retypeShiftSlots gives the frame slot of each shift among n's operands
// (through parentheses) the type of the shift, where retypeUntypedShift
// changed it. sc is the scope being compiled, whose frame holds the slot.
func retypeShiftSlots(sc *scope, n *node) {
	for _, c := range n.child {
		for c.kind == parenExpr && len(c.child) == 1 {
			c = c.child[0]
		}
		if c.kind != binaryExpr || (c.action != aShl && c.action != aShr) || c.typ == nil || c.rval.IsValid() {
			continue
		}
		if c.level != 0 || c.findex < 0 || c.findex >= len(sc.types) {
			continue
		}
		if t := c.typ.frameType(); t != nil && sc.types[c.findex] != t {
			sc.types[c.findex] = t
		}
	}
}
