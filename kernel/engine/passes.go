package engine

import "fmt"

// passes is the pipeline of a cell between its parse and its compile, in
// the order the passes run (see pass; the README's "How the engine runs a
// cell" is generated from it: go test ./kernel/engine/ -run
// TestReadmePasses -update-readme).
//
// Adding a repair: its code and its pass value in a yaegi_*.go file of its
// own, one line here, and one program in e2e/conformance/corpus that shows
// the bug, with `go run` as the oracle.
var passes = []*pass{
	&passAsType,          // yaegi_astype.go (early: before the cell is analysed)
	&passUseBeforeDecl,   // usebeforedecl.go
	&passFieldByName,     // yaegi_fieldbyname.go (before the crossings rewrite the nodes it looks up)
	&passXMLEmbedded,     // yaegi_xmlembed.go (the same)
	&passMethodValues,    // yaegi_methodvalue.go
	&passTypedRanges,     // yaegi_rangetyped.go
	&passCrossings,       // crossing_rewrite.go, yaegi_ifaceeq.go, yaegi_valerr.go, yaegi_namedvalue.go
	&passIfaceConversion, // yaegi_ifaceconv.go
	&passUntypedCases,    // yaegi_typeswitch.go
	&passGenericNames,    // yaegi_generic_names.go
	&passRedeclared,      // yaegi_redeclared.go
	&passBuiltinValues,   // yaegi_builtinvalue.go
	&passIterPull,        // yaegi_iterpull.go
	&passRecursiveTypes,  // yaegi_rectypes.go
	&passLogValuers,      // yaegi_logvaluer.go
	&passLogSource,       // yaegi_logsource.go
	&passPkgVars,         // yaegi_pkgvars.go
	&passRecvConds,       // yaegi_recvcond.go (chunk by chunk from here)
	&passParallelValues,  // yaegi_parallel.go
	&passCaseLists,       // yaegi_caselist.go
	&passRuneConsts,      // yaegi_runeconst.go
	&passModern,          // yaegi_modern.go
	&passCellAssertions,  // yaegi_typeswitch.go
	&passTypeSwitches,    // yaegi_typeswitch.go
	&passDefers,          // yaegi_defer.go
	&passMultiVars,       // yaegi_multivar.go
	&passSelects,         // yaegi_select.go
	&passRecovers,        // yaegi_panics.go (to here)
	&passGenericDefines,  // yaegi_genericdefine.go
	&passBounds,          // yaegi_bounds.go
	&passInsertHelpers,   // run.go
	&passChangedDecls,    // run.go
	&passDroppedNames,    // body_main.go
}

// The passes of files that are not yaegi workarounds of their own.

var passUseBeforeDecl = pass{
	name:     "use-before-decl",
	bug:      "Go's scope, which the engine's body breaks: it declares a cell's top-level names before the body runs, so yaegi would read a zero value",
	file:     "usebeforedecl.go",
	reads:    needTypes | needSession,
	changes:  "refuses",
	userOnly: true,
	needed: func(c *cellRun) bool {
		c.later = c.e.laterNames(c.ps)
		return len(c.later) > 0
	},
	run: func(c *cellRun) *CellError {
		return c.e.refuseUseBeforeDecl(c.name, c.ps, &typesErrors{errs: c.checked.Errors, later: c.later})
	},
}

var passCrossings = pass{
	name: "crossings",
	bug: "values of the cells' types reach compiled code (fmt, errors, encoding/json, io.Copy) without their names or methods; " +
		"== on interfaces holding them (yaegi_ifaceeq.go), value-method structs in interfaces (yaegi_valerr.go), " +
		"named basic types in interfaces (yaegi_namedvalue.go)",
	file:     "crossing_rewrite.go",
	reads:    needTypes | needSession,
	changes:  "calls of compiled functions, conversions to interfaces, == and != of interfaces; adds the method helpers' declarations",
	userOnly: true,
	needed: func(c *cellRun) bool {
		e, ps := c.e, c.ps
		c.extra.eq = hasIfaceCompare(ps, c.kinds) // yaegi_ifaceeq.go
		c.extra.box = mayConvert(ps) && (len(valueMethodStructs(c.methods, c.kinds)) > 0 || e.hasNamedBasic(ps, c.methods) ||
			len(valueMethodTypes(c.methods, c.kinds, cellOther)) > 0) // yaegi_valerr.go, yaegi_namedvalue.go
		// A type switch with an interface case matches a cell's value by
		// its type's method set, which the descriptors record.
		c.extra.types = e.hasIfaceSwitch(ps)
		return e.needsCrossing(ps, c.cross) || c.extra.eq || c.extra.box || c.extra.types
	},
	run: func(c *cellRun) *CellError {
		e := c.e
		c.checked.ProbeAll = c.extra.types
		more := crossExtras{compares: c.extra.eq, boxValues: c.extra.box, qualify: e.qualifier(c.cross)}
		src := e.rewriteCrossings(c.ps, c.checked, more)
		if src == "" {
			return nil
		}
		h, err := e.parseChunk(c.name, src, chunk{kind: kindDecl, start: 0, end: len(src), line: 1, col: 1})
		if err != nil {
			return e.syntaxError(c.name, fmt.Errorf("gocl's method helpers: %w", err))
		}
		c.helpers = h // inserted after the rewrites below, which are not for it
		return nil
	},
}

var passInsertHelpers = pass{
	name:    "insert-helpers",
	bug:     "none: places the crossings' method helpers in the cell, after the rewrites, which are not for them",
	file:    "run.go",
	after:   []string{"crossings"},
	changes: "adds the helpers to the cell's last declaration chunk, or as a chunk before its statements",
	run: func(c *cellRun) *CellError {
		if c.helpers != nil {
			c.ps, c.helpers = insertHelpers(c.ps, c.helpers)
		}
		return nil
	},
}

var passChangedDecls = pass{
	name:    "changed-decls",
	bug:     "yaegi keeps the first declaration of a type or a method: a later cell's other one would silently not take effect",
	file:    "run.go",
	reads:   needSession,
	changes: "refuses; drops a type declared again as it was",
	run:     func(c *cellRun) *CellError { return c.e.checkTypes(c.name, c.ps) },
}

var passDroppedNames = pass{
	name:    "dropped-names",
	bug:     "yaegi cannot forget a variable: a name a failed cell declared and did not reach stays, unset",
	file:    "body_main.go",
	reads:   needSession,
	changes: "refuses",
	run:     func(c *cellRun) *CellError { return c.e.checkDropped(c.name, c.ps) },
}
