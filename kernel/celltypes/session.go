// Package celltypes type-checks a notebook's cells with go/types, one cell at
// a time, against what the earlier cells declared, so that the engine knows
// the static type of every expression of a cell.
//
// The interpreter keeps no static types at run time: a value of a type
// declared in a cell reaches compiled code (fmt, errors, encoding/json) as a
// bare reflect value, without its name or methods. Knowing each argument's
// static type lets the engine hand such values over with both (see
// kernel/cellvalue).
//
// A Session keeps the source of every package-level declaration the cells
// made (the latest one of each name), a variable declared by a top-level
// statement as the package-level `var` it stands for. Each check re-checks
// those declarations from source with the new cell, so that methods declared
// in a later cell than their type belong to it, as they do in Go, and a cell
// that needs no check costs only the parse of its declarations. Type errors never stop a check: the
// types go/types could work out are recorded, and the errors returned.
package celltypes

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"sort"
	"strconv"
	"strings"
)

// CheckFunc is the name of the function whose body holds a cell's top-level
// statements while it is checked.
const CheckFunc = "__gocl_cell"

// Session type-checks the cells of one interpreter session.
type Session struct {
	fset    *token.FileSet
	imp     types.Importer
	imports map[string]string // the name cells use -> import path
	decls   map[string]*decl  // package-level declarations by name; methods as "T.M"
	version int               // counts the changes of decls and imports
	cache   *checkedSession   // the declarations checked once, for the cells that can use them (cache.go)
}

// decl is one declaration kept by the session: its source, parsed once.
type decl struct {
	text  string
	names []string // the names the declaration declares (one spec may declare several)
	node  ast.Decl // parsed on first use
	bad   bool     // the text did not parse
}

// New returns a session that imports packages through imp and starts with
// the given imports (name in cells -> import path), as the interpreter's
// own setup cell made them.
func New(fset *token.FileSet, imp types.Importer, imports map[string]string) *Session {
	s := &Session{fset: fset, imp: imp, imports: map[string]string{}, decls: map[string]*decl{}}
	for name, path := range imports {
		s.imports[name] = path
	}
	return s
}

// Cell is one cell to check. Its nodes are read, never changed.
type Cell struct {
	Imports map[string]string // the cell's own imports: name -> path
	Decls   []ast.Decl        // its package-level declarations
	Texts   []string          // the source of each of Decls, as written
	Stmts   []ast.Stmt        // its top-level statements, in order
	// StmtDecls are the package-level declarations that stand for what the
	// statements declare, for later cells: `x, err := f()` as
	// "var x, err = f()" (see VarDecl).
	StmtDecls []string
	stmtNames [][]string // the names each of StmtDecls declares, when AddStmt made it
}

// AddStmt adds to c the package-level declaration that stands for what the
// top-level statement st declares, if anything (see VarDecl).
func (c *Cell) AddStmt(st ast.Stmt, text func(ast.Node) string) {
	d := VarDecl(st, text)
	if d == "" {
		return
	}
	var names []string
	for _, id := range stmtDecls(st) {
		if id.Name != "_" {
			names = append(names, id.Name)
		}
	}
	c.StmtDecls = append(c.StmtDecls, d)
	c.stmtNames = append(c.stmtNames, names)
}

// Checked is the result of checking one cell.
type Checked struct {
	Info   *types.Info
	Pkg    *types.Package
	Errors []error // type errors, in the order go/types found them
	// ProbeAll is for the engine: describe every type the session declared
	// (set by its caller, not by Check).
	ProbeAll bool
}

// Check type-checks c against what earlier committed cells declared.
func (s *Session) Check(c Cell) *Checked {
	if ch := s.checkCached(c); ch != nil {
		return ch
	}
	return s.checkFull(c)
}

// checkFull checks c with the session's declarations, all from source.
func (s *Session) checkFull(c Cell) *Checked {
	own := declaredNames(c)
	pkg := types.NewPackage("main", "main")
	sessionDecls := s.sessionDecls(own)
	// The cell's own functions may use what its statements declare (they
	// are the session's variables, as in later cells): those are declared
	// at package level too, as the statements' own `var` declarations
	// (the statements' locals then shadow them in CheckFunc's body).
	// Only those the functions use: elsewhere the statements' own order
	// decides (a use before the declaration stays "undefined").
	ownDecls, usedByDecls := map[string]bool{}, map[string]bool{}
	for _, d := range c.Decls {
		for _, n := range declNames(d) {
			ownDecls[n] = true
		}
		ast.Inspect(d, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				usedByDecls[id.Name] = true
			}
			return true
		})
	}
	for i, text := range c.StmtDecls {
		if i >= len(c.stmtNames) || !anyIn(c.stmtNames[i], usedByDecls) || anyIn(c.stmtNames[i], ownDecls) {
			continue
		}
		if n := (&decl{text: text}).parse(s.fset); n != nil {
			sessionDecls = append(sessionDecls, n)
		}
	}
	all := map[string]string{}
	for n, p := range s.imports {
		all[n] = p
	}
	for n, p := range c.Imports {
		all[n] = p
	}
	files := []*ast.File{
		syntheticFile(all, sessionDecls),
		syntheticFile(all, append(append([]ast.Decl(nil), c.Decls...), &ast.FuncDecl{
			Name: ast.NewIdent(CheckFunc),
			Type: &ast.FuncType{Params: &ast.FieldList{}},
			Body: &ast.BlockStmt{List: c.Stmts},
		})),
	}
	ch := &Checked{Info: newInfo(), Pkg: pkg}
	conf := s.config(func(err error) { ch.Errors = append(ch.Errors, err) })
	_ = types.NewChecker(conf, s.fset, pkg, ch.Info).Files(files)
	return ch
}

// sessionDecls are the session's declarations but those that declare a
// name of own, in the order of their names, the functions without their
// bodies.
func (s *Session) sessionDecls(own map[string]bool) []ast.Decl {
	var sessionDecls []ast.Decl
	seen := map[*decl]bool{}
	for _, k := range sortedKeys(s.decls) {
		d := s.decls[k]
		if seen[d] || overlaps(d.names, own) {
			continue
		}
		seen[d] = true
		if n := d.parse(s.fset); n != nil {
			if fd, ok := n.(*ast.FuncDecl); ok && fd.Body != nil {
				// Earlier cells' function bodies were checked with their
				// cell: only their signatures matter now.
				bare := *fd
				bare.Body = nil
				n = &bare
			}
			sessionDecls = append(sessionDecls, n)
		}
	}
	return sessionDecls
}

// Commit records what a cell declared, once it ran: later cells see its
// declarations, its statements' variables and its imports. A cell needs no
// Check to be committed, and Commit parses nothing: the declarations are
// parsed when a later check needs them.
func (s *Session) Commit(c Cell) {
	for n, p := range c.Imports {
		if q, ok := s.imports[n]; !ok || q != p {
			s.version++
		}
		s.imports[n] = p
	}
	for i, d := range c.Decls {
		if i < len(c.Texts) {
			s.keep(c.Texts[i], declNames(d))
		}
	}
	for i, text := range c.StmtDecls {
		var names []string
		if i < len(c.stmtNames) {
			names = c.stmtNames[i]
		}
		s.keep(text, names)
	}
}

// VarDecl is the package-level declaration that stands for the variables a
// top-level statement declares, written from the source of its parts, or
// "" for a statement that declares none: `a, b := f()` is
// "var a, b = f()", and a `var` statement is itself.
func VarDecl(st ast.Stmt, text func(ast.Node) string) string {
	switch st := st.(type) {
	case *ast.AssignStmt:
		if st.Tok != token.DEFINE {
			return ""
		}
		lhs := make([]string, len(st.Lhs))
		for i, l := range st.Lhs {
			lhs[i] = text(l)
		}
		rhs := make([]string, len(st.Rhs))
		for i, r := range st.Rhs {
			rhs[i] = text(r)
		}
		return "var " + strings.Join(lhs, ", ") + " = " + strings.Join(rhs, ", ")
	case *ast.DeclStmt:
		return text(st.Decl)
	}
	return ""
}

// keep records one declaration of a committed cell by its text and the
// names it declares (found by parsing when not given).
func (s *Session) keep(text string, names []string) {
	if strings.TrimSpace(text) == "" {
		return
	}
	kept := &decl{text: text, names: names}
	if names == nil {
		if kept.parse(s.fset) == nil {
			return
		}
		kept.names = declNames(kept.node)
	}
	for _, n := range kept.names {
		if old := s.decls[n]; old == nil || old.text != text || strings.Join(old.names, ",") != strings.Join(kept.names, ",") {
			s.version++
		}
	}
	for _, n := range kept.names {
		s.drop(n)
	}
	for _, n := range kept.names {
		s.decls[n] = kept
	}
}

// parse parses the declaration's text once; nil when it does not parse.
func (d *decl) parse(fset *token.FileSet) ast.Decl {
	if d.node == nil && !d.bad {
		f, err := parser.ParseFile(fset, "session.go", "package main\n"+d.text, parser.SkipObjectResolution)
		if err != nil || len(f.Decls) != 1 {
			d.bad = true
			return nil
		}
		d.node = f.Decls[0]
	}
	return d.node
}

// drop forgets the declaration that declared name, with every other name
// it declared.
func (s *Session) drop(name string) {
	d := s.decls[name]
	if d == nil {
		return
	}
	for _, n := range d.names {
		if s.decls[n] == d {
			delete(s.decls, n)
		}
	}
}

// declNames lists the names a package-level declaration declares; a method
// declares "T.M".
func declNames(d ast.Decl) []string {
	var names []string
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv != nil && len(d.Recv.List) == 1 {
			if base := recvBase(d.Recv.List[0].Type); base != "" {
				names = append(names, base+"."+d.Name.Name)
			}
			return names
		}
		names = append(names, d.Name.Name)
	case *ast.GenDecl:
		for _, sp := range d.Specs {
			switch sp := sp.(type) {
			case *ast.TypeSpec:
				names = append(names, sp.Name.Name)
			case *ast.ValueSpec:
				for _, id := range sp.Names {
					if id.Name != "_" {
						names = append(names, id.Name)
					}
				}
			}
		}
	}
	return names
}

// recvBase is the name of a method's receiver base type.
func recvBase(t ast.Expr) string {
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
		case *ast.ParenExpr:
			t = x.X
		case *ast.IndexExpr:
			t = x.X
		case *ast.IndexListExpr:
			t = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

// declaredNames is every name c declares at package level, or by a
// top-level statement (which hides an earlier variable of that name).
// anyIn reports whether one of names is in set.
func anyIn(names []string, set map[string]bool) bool {
	for _, n := range names {
		if set[n] {
			return true
		}
	}
	return false
}

func declaredNames(c Cell) map[string]bool {
	own := map[string]bool{}
	for _, d := range c.Decls {
		for _, n := range declNames(d) {
			own[n] = true
		}
	}
	for _, st := range c.Stmts {
		for _, id := range stmtDecls(st) {
			own[id.Name] = true
		}
	}
	return own
}

// stmtDecls lists the identifiers a top-level statement declares.
func stmtDecls(st ast.Stmt) []*ast.Ident {
	var ids []*ast.Ident
	switch st := st.(type) {
	case *ast.AssignStmt:
		if st.Tok == token.DEFINE {
			for _, l := range st.Lhs {
				if id, ok := l.(*ast.Ident); ok {
					ids = append(ids, id)
				}
			}
		}
	case *ast.DeclStmt:
		if g, ok := st.Decl.(*ast.GenDecl); ok {
			for _, sp := range g.Specs {
				if vs, ok := sp.(*ast.ValueSpec); ok {
					ids = append(ids, vs.Names...)
				}
			}
		}
	}
	return ids
}

func overlaps(names []string, set map[string]bool) bool {
	for _, n := range names {
		if set[n] {
			return true
		}
		if i := strings.IndexByte(n, '.'); i > 0 && set[n[:i]] {
			return true // a method of a type the cell declares again
		}
	}
	return false
}

// syntheticFile is a file of package main with the given imports and
// declarations.
func syntheticFile(imports map[string]string, decls []ast.Decl) *ast.File {
	f := &ast.File{Name: ast.NewIdent("main")}
	if len(imports) > 0 {
		g := &ast.GenDecl{Tok: token.IMPORT, Lparen: 1}
		for _, name := range sortedKeys(imports) {
			spec := &ast.ImportSpec{Path: &ast.BasicLit{Kind: token.STRING, Value: strconv.Quote(imports[name])}}
			if name == "_" || name == "." {
				continue
			}
			spec.Name = ast.NewIdent(name)
			g.Specs = append(g.Specs, spec)
			f.Imports = append(f.Imports, spec)
		}
		f.Decls = append(f.Decls, g)
	}
	f.Decls = append(f.Decls, decls...)
	return f
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
