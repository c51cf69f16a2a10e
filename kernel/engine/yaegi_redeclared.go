package engine

import (
	"fmt"
	"go/ast"
	"go/token"
	"strings"
)

// A cell is one function body in Go's terms (its declarations and
// statements in one scope), so a name can be declared once at its top
// level: `type foo struct{}` then `var foo int` is Go's "foo redeclared in
// this block". gocl parses a cell in chunks (declarations apart from
// statements: split.go), and the parser sees a redeclaration only inside
// one chunk; across two, the second declaration replaced the first as if
// it came from a later cell (yaegi's redeclaration0 and 4 in notebook form
// printed a value where go refuses the program). A later cell may still
// declare any name again.

// cellDeclared is one name declared at a cell's top level.
type cellDeclared struct {
	chunk int
	pos   token.Pos
}

// refuseRedeclared returns Go's error for the first name that two chunks
// of the cell declare at the top level, or for a := of the cell's top level
// whose names other chunks all declared ("no new variables").
func (e *Engine) refuseRedeclared(name string, ps []*parsed) *CellError {
	seen := map[string]cellDeclared{}
	var pkgErr *CellError // a name of a package: reported when nothing is redeclared, as Go reports that first
	for i, p := range ps {
		var err *CellError
		declare := func(id *ast.Ident) bool {
			if id.Name == "_" || id.Name == "init" || strings.HasPrefix(id.Name, helperPrefix) {
				return true
			}
			if prev, ok := seen[id.Name]; ok && prev.chunk != i {
				_, line, _ := e.cellPos(prev.pos)
				err = e.errorAt(name, "CompileError", fmt.Sprintf("%s redeclared in this block (declared before at line %d of this cell; "+
					"a cell's top level is one scope, as a function body is: declare a name once a cell, and again in a later cell if you like)",
					id.Name, line), id.Pos(), nil)
				return false
			}
			seen[id.Name] = cellDeclared{chunk: i, pos: id.Pos()}
			return true
		}
		switch {
		case p.file != nil && p.kind == kindDecl:
			for _, d := range p.file.Decls {
				if !declareDecl(d, declare) {
					return err
				}
				if pkgErr == nil {
					pkgErr = e.refusePackageName(name, d, cellImports(ps))
				}
			}
		case p.body != nil:
			for _, st := range p.body.List {
				switch s := st.(type) {
				case *ast.DeclStmt:
					if !declareDecl(s.Decl, declare) {
						return err
					}
				case *ast.AssignStmt:
					if s.Tok != token.DEFINE {
						continue
					}
					fresh := false
					var old *ast.Ident
					for _, l := range s.Lhs {
						id, ok := l.(*ast.Ident)
						if !ok || id.Name == "_" {
							continue
						}
						if prev, ok := seen[id.Name]; ok && prev.chunk != i {
							old = id
							continue
						}
						fresh = true
						seen[id.Name] = cellDeclared{chunk: i, pos: id.Pos()}
					}
					if !fresh && old != nil {
						return e.errorAt(name, "CompileError", "no new variables on left side of := (every name was declared before in this cell; "+
							"assign with = instead)", s.TokPos, nil)
					}
				}
			}
		}
	}
	return pkgErr
}

// declareDecl calls declare with every name d declares at the top level
// (not a method's), until it returns false; it reports whether all were
// declared.
func declareDecl(d ast.Decl, declare func(*ast.Ident) bool) bool {
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv == nil {
			return declare(d.Name)
		}
	case *ast.GenDecl:
		for _, sp := range d.Specs {
			switch sp := sp.(type) {
			case *ast.TypeSpec:
				if !declare(sp.Name) {
					return false
				}
			case *ast.ValueSpec:
				for _, n := range sp.Names {
					if !declare(n) {
						return false
					}
				}
			}
		}
	}
	return true
}

// refusePackageName refuses a function or type of the cell named like a
// package the session has imported: every cell sees the session's imports
// (fmt, sort, ... without an import line), and yaegi refuses the name as
// "redeclared", which a program that imports no sort (yaegi's convert0
// declares func sort) cannot make sense of.
//
// A cell that imports the name itself gets Go's "redeclared in this block"
// from yaegi, as a Go file would.
func (e *Engine) refusePackageName(name string, d ast.Decl, own map[string]string) *CellError {
	var ids []*ast.Ident
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv == nil {
			ids = append(ids, d.Name)
		}
	case *ast.GenDecl:
		for _, sp := range d.Specs {
			if ts, ok := sp.(*ast.TypeSpec); ok {
				ids = append(ids, ts.Name)
			}
		}
	}
	for _, id := range ids {
		if _, ok := own[id.Name]; ok {
			continue
		}
		e.state.Lock()
		path, imported := e.imports[id.Name]
		e.state.Unlock()
		if !imported {
			continue
		}
		how := "which an earlier cell imported"
		for _, p := range DefaultImports {
			if p == path {
				how = "which every cell has without an import (gocl imports " + strings.Join(DefaultImports, ", ") + " for you)"
			}
		}
		return e.errorAt(name, "CompileError", fmt.Sprintf("%s is the name of the package %q, %s: a function or type of a cell "+
			"cannot be named %s; give it another name, such as %sOf", id.Name, path, how, id.Name, id.Name), id.Pos(), nil)
	}
	return nil
}

var passRedeclared = pass{
	name:     "redeclared",
	bug:      "none of yaegi's: a cell is parsed in chunks, so a name declared twice at its top level is seen only here (Go's \"redeclared in this block\")",
	file:     "yaegi_redeclared.go",
	reads:    needSession,
	changes:  "refuses",
	userOnly: true,
	run:      func(c *cellRun) *CellError { return c.e.refuseRedeclared(c.name, c.ps) },
}
