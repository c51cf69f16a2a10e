package engine

import "go/ast"

// A cell's imports are those of one Go file, where a name can be imported
// once: `import ("time"; "time")` is Go's "time redeclared in this block".
// gocl imports each cell's packages itself (runImports) and let the second
// import of a package by the same name pass, as it does in a later cell
// (where importing again is fine): yaegi's redeclaration-global2 ran where
// go refuses to build it.

// importedTwice is the error for a second import of alias in one cell.
func (e *Engine) importedTwice(name, alias string, spec *ast.ImportSpec) *CellError {
	return e.errorAt(name, "CompileError", alias+" redeclared in this block (this cell imports "+alias+
		" twice; import each package once per cell, or under another name)", spec.Pos(), nil)
}
