package engine

// refuseCellLimits runs the refusals of constructs that Go accepts or
// words otherwise, checked on the cell's syntax before anything of it
// runs, and returns the first error: a name declared twice at the top
// level (yaegi_redeclared.go), a builtin used as a value
// (yaegi_builtinvalue.go), iter.Pull (yaegi_iterpull.go), a type that
// reaches itself other than through a struct (yaegi_rectypes.go).
func (e *Engine) refuseCellLimits(name string, ps []*parsed) *CellError {
	for _, refuse := range []func(string, []*parsed) *CellError{e.refuseRedeclared, e.refuseBuiltinValues, e.refuseIterPull, e.refuseRecursiveTypes} {
		if err := refuse(name, ps); err != nil {
			return err
		}
	}
	return nil
}
