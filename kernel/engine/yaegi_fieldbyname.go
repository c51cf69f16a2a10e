package engine

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
)

// yaegi builds the struct type of a cell's struct with its unexported
// fields renamed (firstName becomes XfirstName: reflect.StructOf takes
// exported names only). reflect's FieldByName("firstName") on a value or
// type of a cell's struct found nothing, and the program went on with the
// zero Value (issue 24: the standard library's ExampleValue_FieldByName).
// A cell that asks reflect.Value or reflect.Type for a field by a constant
// unexported name that a struct type of the session declares is refused
// before it runs, with what to write instead.

// fieldByNameCall returns the string constant that a call
// x.FieldByName("name") passes, when name is unexported, or "".
func fieldByNameCall(n ast.Node) (*ast.CallExpr, string) {
	call, ok := n.(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return nil, ""
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "FieldByName" {
		return nil, ""
	}
	lit, ok := call.Args[0].(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return nil, ""
	}
	s, err := strconv.Unquote(lit.Value)
	if err != nil || s == "" || token.IsExported(s) {
		return nil, ""
	}
	return call, s
}

// hasUnexportedFieldByName reports whether the cell calls FieldByName with
// a constant unexported name: the cheap test before the type check.
func hasUnexportedFieldByName(ps []*parsed) bool {
	found := false
	for _, p := range ps {
		if n := p.node(); n != nil && p.kind != kindImport && !found {
			ast.Inspect(n, func(n ast.Node) bool {
				if call, _ := fieldByNameCall(n); call != nil {
					found = true
				}
				return !found
			})
		}
	}
	return found
}

// refuseFieldByName returns the refusal for the cell's first call of
// reflect's FieldByName with an unexported name that a struct type of the
// session declares as a field, or nil.
func (e *Engine) refuseFieldByName(c *cellRun) *CellError {
	if c.checked == nil || c.checked.Info == nil || c.checked.Pkg == nil {
		return nil
	}
	cellFields := map[string]string{} // unexported field name: the cell type that has it
	addFields := func(tn *types.TypeName) {
		if st, ok := tn.Type().Underlying().(*types.Struct); ok {
			for i := 0; i < st.NumFields(); i++ {
				if f := st.Field(i); !f.Exported() && f.Name() != "_" {
					cellFields[f.Name()] = tn.Name()
				}
			}
		}
	}
	scope := c.checked.Pkg.Scope() // the session's types
	for _, name := range scope.Names() {
		if tn, ok := scope.Lookup(name).(*types.TypeName); ok {
			addFields(tn)
		}
	}
	for _, obj := range c.checked.Info.Defs { // the cell's, local ones too
		if tn, ok := obj.(*types.TypeName); ok {
			addFields(tn)
		}
	}
	if len(cellFields) == 0 {
		return nil
	}
	var found *ast.CallExpr
	var field string
	for _, p := range c.ps {
		if n := p.node(); n != nil && p.kind != kindImport && found == nil {
			ast.Inspect(n, func(n ast.Node) bool {
				call, name := fieldByNameCall(n)
				if call == nil || cellFields[name] == "" {
					return found == nil
				}
				x := call.Fun.(*ast.SelectorExpr).X
				if tv, ok := c.checked.Info.Types[x]; ok && isReflectValueOrType(tv.Type) {
					found, field = call, name
				}
				return found == nil
			})
		}
	}
	if found == nil {
		return nil
	}
	return e.errorAt(c.name, "CompileError", "reflect cannot find the unexported field "+field+" of a type declared in a "+
		"cell (of "+cellFields[field]+") by its name: the interpreter (yaegi) renames unexported fields in the types "+
		"it builds, so FieldByName would find nothing; export the field (a capital first letter), or use Field(i) with the "+
		"field's index", found.Pos(), nil)
}

// isReflectValueOrType reports whether t is reflect.Value or reflect.Type.
func isReflectValueOrType(t types.Type) bool {
	named, ok := t.(*types.Named)
	if !ok || named.Obj().Pkg() == nil || named.Obj().Pkg().Path() != "reflect" {
		return false
	}
	n := named.Obj().Name()
	return n == "Value" || n == "Type"
}

var passFieldByName = pass{
	name:     "field-by-name",
	bug:      "yaegi renames a cell struct's unexported fields (XfirstName): reflect's FieldByName(\"firstName\") finds nothing: refused",
	file:     "yaegi_fieldbyname.go",
	reads:    needTypes | needSession,
	changes:  "refuses",
	userOnly: true,
	needed:   func(c *cellRun) bool { return hasUnexportedFieldByName(c.ps) },
	run:      func(c *cellRun) *CellError { return c.e.refuseFieldByName(c) },
}
