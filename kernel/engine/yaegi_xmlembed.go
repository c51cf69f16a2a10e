package engine

import (
	"go/ast"
	"go/types"
)

// encoding/xml is compiled code: it reads a cell's struct through the
// reflect type yaegi builds for it, in which an embedded struct is a field
// like the others, not embedded. xml.Marshal of a struct that embeds
// another printed nothing, MarshalIndent put the embedded fields in an
// element of their own, and Unmarshal left them empty, all with no error
// (issue 24: the standard library's encoding/xml ExampleEncoder,
// ExampleMarshalIndent, ExampleUnmarshal). gocl's crossing layer
// (crossing.go) gives encoding/json the cell's types, not encoding/xml. A
// cell that passes encoding/xml a value of a cell's struct type with an
// embedded field (or a pointer, slice, array or map of one) is refused
// before it runs, with what to write instead.

// refuseXMLEmbedded returns the refusal for the cell's first call of an
// encoding/xml function or method with such a value, or nil.
func (e *Engine) refuseXMLEmbedded(c *cellRun) *CellError {
	if c.checked == nil || c.checked.Info == nil || c.checked.Pkg == nil {
		return nil
	}
	info := c.checked.Info
	var found ast.Expr
	var typ string
	for _, p := range c.ps {
		if n := p.node(); n != nil && p.kind != kindImport && found == nil {
			ast.Inspect(n, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok || found != nil {
					return found == nil
				}
				sel, ok := call.Fun.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				fn, ok := info.Uses[sel.Sel].(*types.Func)
				if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "encoding/xml" {
					return true
				}
				for _, arg := range call.Args {
					if tv, ok := info.Types[arg]; ok {
						if name := embedsInCell(tv.Type, c.checked.Pkg, map[types.Type]bool{}); name != "" {
							found, typ = arg, name
							return false
						}
					}
				}
				return true
			})
		}
	}
	if found == nil {
		return nil
	}
	return e.errorAt(c.name, "CompileError", "encoding/xml cannot see the embedded fields of a type declared in a cell ("+
		typ+" embeds a struct): the interpreter (yaegi) builds it with the embedded struct as a named field, so xml "+
		"would write or read the wrong elements; declare the embedded struct's fields in "+typ+" itself (or a named "+
		"field with an xml tag), or put the types and the xml code in a cell that starts with //gocl:compile",
		found.Pos(), nil)
}

// embedsInCell returns the name of a struct type of package pkg (a cell's)
// with an embedded field that t is or holds through pointers, slices,
// arrays, maps and struct fields, or "".
func embedsInCell(t types.Type, pkg *types.Package, seen map[types.Type]bool) string {
	if seen[t] {
		return ""
	}
	seen[t] = true
	switch u := t.(type) {
	case *types.Named:
		if u.Obj().Pkg() != pkg {
			return "" // a compiled package's type: reflect sees it as Go does
		}
		if st, ok := u.Underlying().(*types.Struct); ok {
			for i := 0; i < st.NumFields(); i++ {
				if st.Field(i).Anonymous() {
					return u.Obj().Name()
				}
			}
		}
		return embedsInCell(u.Underlying(), pkg, seen)
	case *types.Pointer:
		return embedsInCell(u.Elem(), pkg, seen)
	case *types.Slice:
		return embedsInCell(u.Elem(), pkg, seen)
	case *types.Array:
		return embedsInCell(u.Elem(), pkg, seen)
	case *types.Map:
		return embedsInCell(u.Elem(), pkg, seen)
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if name := embedsInCell(u.Field(i).Type(), pkg, seen); name != "" {
				return name
			}
		}
	}
	return ""
}

var passXMLEmbedded = pass{
	name:     "xml-embedded",
	bug:      "encoding/xml sees a cell struct's embedded struct as a named field (Marshal prints nothing, Unmarshal leaves it empty): refused",
	file:     "yaegi_xmlembed.go",
	reads:    needTypes | needSession,
	changes:  "refuses",
	userOnly: true,
	needed:   func(c *cellRun) bool { return len(c.e.importNames(c.ps, "encoding/xml")) > 0 },
	run:      func(c *cellRun) *CellError { return c.e.refuseXMLEmbedded(c) },
}
