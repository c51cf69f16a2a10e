package celltypes

import (
	"go/ast"
	"go/types"
	"maps"
	"strings"
)

// checkedSession is the session's declarations checked once, as the first
// file of a go/types package, which a cell's statements are then checked
// against as one more file of the same package (go/types adds files to a
// package incrementally), by a checker of its own: the checker that checked
// the session walks all the package's objects again on every file it is
// given (their order, their cycles, their initialization order), the
// cell's own checker only the cell's function, which finds the session's
// objects in the package's scope, checked already. The function is named
// _, so that it stays out of that scope: the package does not grow with the
// cells it served. A cell that declares nothing at package level,
// imports nothing new and declares no name the session declares is checked
// this way, at the cost of its own statements only: what the check of
// session and cell together from source records for the cell's nodes, and
// its errors, Check records here too (TestCachedCheckIsTheFullCheck); of
// the session's nodes it records the definitions only.
type checkedSession struct {
	version int
	pkg     *types.Package
	info    *types.Info // the session file's
	errs    []error     // the session file's errors
	cells   int         // cells checked against it
}

// checkCached checks c against the checked session, or returns nil when c
// is not a cell it can check that way (see checkedSession).
func (s *Session) checkCached(c Cell) *Checked {
	if len(c.Decls) > 0 {
		return nil
	}
	for n, p := range c.Imports {
		if q, ok := s.imports[n]; !ok || q != p {
			return nil
		}
	}
	own := declaredNames(c)
	for _, d := range s.decls {
		if overlaps(d.names, own) {
			return nil
		}
	}
	cs := s.cache
	if cs == nil || cs.version != s.version {
		cs = s.checkSession()
		s.cache = cs
	}
	cs.cells++
	ch := &Checked{Info: newInfo(), Pkg: cs.pkg}
	// What the engine reads of the session's file: its definitions (a
	// session that defines len gets no bounds checks). The rest of Info
	// is keyed by nodes, and the engine looks up the cell's.
	ch.Info.Defs = maps.Clone(cs.info.Defs)
	ch.Errors = append([]error(nil), cs.errs...)
	file := syntheticFile(s.imports, []ast.Decl{&ast.FuncDecl{
		Name: ast.NewIdent("_"),
		Type: &ast.FuncType{Params: &ast.FieldList{}},
		Body: &ast.BlockStmt{List: c.Stmts},
	}})
	conf := s.config(func(err error) { ch.Errors = append(ch.Errors, err) })
	_ = types.NewChecker(conf, s.fset, cs.pkg, ch.Info).Files([]*ast.File{file})
	return ch
}

// checkSession checks the session's declarations alone, as Check's first
// file.
func (s *Session) checkSession() *checkedSession {
	cs := &checkedSession{version: s.version, pkg: types.NewPackage("main", "main"), info: newInfo()}
	conf := s.config(func(err error) { cs.errs = append(cs.errs, err) })
	_ = types.NewChecker(conf, s.fset, cs.pkg, cs.info).Files([]*ast.File{syntheticFile(s.imports, s.sessionDecls(nil))})
	return cs
}

// newInfo is an Info that records what the engine reads.
func newInfo() *types.Info {
	return &types.Info{
		Types:      map[ast.Expr]types.TypeAndValue{},
		Defs:       map[*ast.Ident]types.Object{},
		Uses:       map[*ast.Ident]types.Object{},
		Selections: map[*ast.SelectorExpr]*types.Selection{},
		Instances:  map[*ast.Ident]types.Instance{},
	}
}

// config is the configuration of a check whose errors go to report.
func (s *Session) config(report func(error)) *types.Config {
	return &types.Config{
		Importer: s.imp,
		Error: func(err error) {
			if te, ok := err.(types.Error); ok && strings.Contains(te.Msg, "missing function body") {
				return // the session's bodiless functions (sessionDecls)
			}
			report(err)
		},
		DisableUnusedImportCheck: true,
		FakeImportC:              true,
	}
}
