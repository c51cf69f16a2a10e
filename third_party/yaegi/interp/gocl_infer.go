// gocl patch: this file is gocl's own (see PATCHES.md).

package interp

// Unpatched, inferTypesFromCall returned one type for every occurrence of
// a type parameter in the parameters' types, in the order they occur, and
// genAST took them as the type parameters' types in order: for
// Map[T, U any](s []T, f func(T) U) called with ([]int, func(int) string)
// that is [int, int, string], so U was int and the call stopped with
// "cannot use type func(int) string as type func(int) int".

// goclInferred records t as the type of type parameter name, unless an
// earlier occurrence did.
func goclInferred(inferred map[string]*itype, name string, t *itype) {
	if _, ok := inferred[name]; !ok && name != "" && t != nil {
		inferred[name] = t
	}
}

// goclInferredOrder returns the inferred types in the order of the
// function's type parameters (ftn.child[0]), up to the first one not
// inferred; or flat, the occurrences as unpatched, when a name is unknown
// (so that what yaegi did before stays as it was).
func goclInferredOrder(ftn *node, inferred map[string]*itype, flat []*itype) []*itype {
	var types []*itype
	for _, c := range ftn.child[0].child {
		for _, cc := range c.child[:len(c.child)-1] {
			t, ok := inferred[cc.ident]
			if !ok {
				if len(types) == 0 {
					return flat
				}
				return types
			}
			types = append(types, t)
		}
	}
	if len(types) == 0 {
		return flat
	}
	return types
}
