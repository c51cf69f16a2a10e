package engine

import "go/ast"

// yaegi v0.16.1 builds a type that refers to itself only through a struct
// or an interface (type Node struct{ next *Node }). A cycle through
// pointer, slice, array, map, chan or func types alone (type P *P,
// type stateFn func(*lexer) stateFn, type L []L) is Go, but yaegi panics
// while compiling it ("reflect.Type is nil", a nil dereference), or, for
// type A [2]*A and type Q *[]Q, never returns: the cell hangs. Such a cell
// is refused before it runs, naming the type and what to write instead
// (issue 24).

// refuseRecursiveTypes returns the refusal for the cell's first type
// declaration that reaches itself through type literals other than
// structs and interfaces, or nil.
func (e *Engine) refuseRecursiveTypes(name string, ps []*parsed) *CellError {
	specs := map[string]*ast.TypeSpec{}
	var order []*ast.TypeSpec
	for _, p := range ps {
		if n := p.node(); n != nil && p.kind != kindImport {
			ast.Inspect(n, func(n ast.Node) bool {
				if ts, ok := n.(*ast.TypeSpec); ok && ts.Name.Name != "_" {
					specs[ts.Name.Name] = ts
					order = append(order, ts)
				}
				return true
			})
		}
	}
	for _, ts := range order {
		if loopsBack(ts.Name.Name, ts.Type, specs, map[string]bool{}) {
			return e.errorAt(name, "CompileError", "this cell is valid Go, but the interpreter (yaegi v0.16.1) cannot run "+
				"a type that refers to itself other than through a struct or an interface (type "+ts.Name.Name+" here "+
				"reaches itself through pointer, slice, array, map, chan or func types alone, as in type P *P or "+
				"type stateFn func(*lexer) stateFn); put the recursion in a struct (type "+ts.Name.Name+
				" struct{ next *"+ts.Name.Name+" }), or put the code in a cell that starts with //gocl:compile, "+
				"which runs it compiled (see the README's limits)", ts.Pos(), nil)
		}
	}
	return nil
}

// loopsBack reports whether type expression x reaches the type named self
// through unnamed pointer, slice, array, map, chan and func types, and
// through the types of specs it names on the way (seen: those already
// followed).
func loopsBack(self string, x ast.Expr, specs map[string]*ast.TypeSpec, seen map[string]bool) bool {
	switch x := x.(type) {
	case *ast.Ident:
		if x.Name == self {
			return true
		}
		ts, ok := specs[x.Name]
		if !ok || seen[x.Name] {
			return false
		}
		seen[x.Name] = true
		return loopsBack(self, ts.Type, specs, seen)
	case *ast.ParenExpr:
		return loopsBack(self, x.X, specs, seen)
	case *ast.StarExpr:
		return loopsBack(self, x.X, specs, seen)
	case *ast.ArrayType:
		return loopsBack(self, x.Elt, specs, seen)
	case *ast.MapType:
		return loopsBack(self, x.Key, specs, seen) || loopsBack(self, x.Value, specs, seen)
	case *ast.ChanType:
		return loopsBack(self, x.Value, specs, seen)
	case *ast.FuncType:
		for _, fl := range []*ast.FieldList{x.Params, x.Results} {
			if fl == nil {
				continue
			}
			for _, f := range fl.List {
				if loopsBack(self, f.Type, specs, seen) {
					return true
				}
			}
		}
		return false
	case *ast.Ellipsis:
		return loopsBack(self, x.Elt, specs, seen)
	}
	return false // a struct, an interface, a qualified or generic type: yaegi builds those
}

var passRecursiveTypes = pass{
	name:     "recursive-types",
	bug:      "a type that reaches itself through pointer, slice, array, map, chan or func types alone (type P *P) panics yaegi with words about something else, or hangs the cell",
	file:     "yaegi_rectypes.go",
	changes:  "refuses",
	userOnly: true,
	run:      func(c *cellRun) *CellError { return c.e.refuseRecursiveTypes(c.name, c.ps) },
}
