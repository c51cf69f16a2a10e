// gocl patch: this file is gocl's own (see PATCHES.md, "A failed compile takes back its methods").

package interp

// goclMethodAdd is a method that the compile in progress added to a type's
// method list (gta.go, funcDecl with a receiver).
type goclMethodAdd struct {
	t *itype
	n *node
}

// goclNoteMethod records that the compile in progress added method n to t.
func (interp *Interpreter) goclNoteMethod(t *itype, n *node) {
	interp.goclAdded = append(interp.goclAdded, goclMethodAdd{t, n})
}

// goclDropMethods takes the methods that a failed compile added back off
// their types. A type keeps the first method of a name (addMethod appends,
// lookups take the first), so a method of a compile that failed after its
// global analysis stayed on the type, never made runnable, and the same
// declarations compiled again (an embedder's second try, a corrected
// program) called it: the call did nothing, silently.
func (interp *Interpreter) goclDropMethods() {
	for _, a := range interp.goclAdded {
		kept := a.t.method[:0]
		for _, m := range a.t.method {
			if m != a.n {
				kept = append(kept, m)
			}
		}
		a.t.method = kept
	}
	interp.goclAdded = nil
}
