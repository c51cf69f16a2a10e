package cellmodel

import (
	"go/ast"
	"go/token"
	"sort"

	"github.com/seed43a1e1ab/gocl/kernel/cellio"
)

// Declarations lists what part p of the cell called cell declares at the
// cell's top level, for the supervisor's crash replay: this is the one
// extractor of a cell's declarations. Positions (Line, Col) come from m,
// the cell's position map; Uses need the parser's object resolution (see
// Options.Mode). It reads p as parsed: call it before any rewrite.
func Declarations(cell string, p *Part, m *PosMap) []cellio.Declared {
	var out []cellio.Declared
	top := map[string]bool{} // the chunk's own top-level names, for uses
	add := func(kind string, names []string, n ast.Node) {
		d := cellio.Declared{Cell: cell, Kind: kind, Names: names}
		if kind != "var" && kind != "main" {
			pos, _ := m.Position(n.Pos())
			d.Text, d.Line, d.Col = p.NodeText(n), pos.Line, pos.Col
			if kind != "import" {
				d.Uses = UsesOf(n, top, names)
			}
		}
		out = append(out, d)
	}
	genDecl := func(g *ast.GenDecl) {
		var names []string
		for _, s := range g.Specs {
			switch s := s.(type) {
			case *ast.TypeSpec:
				names = append(names, s.Name.Name)
			case *ast.ValueSpec:
				for _, id := range s.Names {
					if id.Name != "_" {
						names = append(names, id.Name)
					}
				}
			}
		}
		if g.Tok == token.IMPORT {
			add("import", nil, g)
		} else if len(names) > 0 || g.Tok != token.VAR {
			add(g.Tok.String(), names, g)
		}
	}
	switch {
	case p.File != nil:
		if p.File.Scope != nil {
			for n := range p.File.Scope.Objects {
				top[n] = true
			}
		}
		for _, d := range p.File.Decls {
			switch d := d.(type) {
			case *ast.GenDecl:
				genDecl(d)
			case *ast.FuncDecl:
				switch name := d.Name.Name; {
				case d.Recv != nil:
					if t := RecvTypeName(d); t != "" {
						add("method", []string{t + "." + name}, d)
					}
				case name == "main":
					add("main", []string{"main"}, d)
				case name == "init" || name == "_":
					// init ran with its cell, and is never declared again.
				default:
					add("func", []string{name}, d)
				}
			}
		}
	case p.Body != nil:
		for _, st := range p.Body.List {
			for _, id := range TopDeclared(st) {
				top[id.Name] = true
			}
			if ds, ok := st.(*ast.DeclStmt); ok {
				if g, ok := ds.Decl.(*ast.GenDecl); ok {
					for _, s := range g.Specs {
						if ts, ok := s.(*ast.TypeSpec); ok {
							top[ts.Name.Name] = true
						} else if vs, ok := s.(*ast.ValueSpec); ok {
							for _, id := range vs.Names {
								top[id.Name] = true
							}
						}
					}
				}
			}
		}
		for _, st := range p.Body.List {
			switch st := st.(type) {
			case *ast.DeclStmt:
				if g, ok := st.Decl.(*ast.GenDecl); ok {
					genDecl(g)
				}
			case *ast.AssignStmt:
				var names []string
				for _, id := range TopDeclared(st) {
					names = append(names, id.Name)
				}
				if len(names) > 0 {
					add("var", names, st)
				}
			}
		}
	}
	return out
}

// TopDeclared lists the names a top-level statement (or a spec of one)
// declares: of a := statement, of a var declaration; "_" is no name.
func TopDeclared(st ast.Node) []*ast.Ident {
	var ids []*ast.Ident
	switch s := st.(type) {
	case *ast.ValueSpec:
		for _, id := range s.Names {
			if id.Name != "_" {
				ids = append(ids, id)
			}
		}
	case *ast.AssignStmt:
		if s.Tok.String() == ":=" {
			for _, l := range s.Lhs {
				if id, ok := l.(*ast.Ident); ok && id.Name != "_" {
					ids = append(ids, id)
				}
			}
		}
	case *ast.DeclStmt:
		if g, ok := s.Decl.(*ast.GenDecl); ok {
			for _, sp := range g.Specs {
				if vs, ok := sp.(*ast.ValueSpec); ok {
					for _, id := range vs.Names {
						if id.Name != "_" {
							ids = append(ids, id)
						}
					}
				}
			}
		}
	}
	return ids
}

// RecvTypeName is the name of a method's receiver type: T of (t *T[K]).
func RecvTypeName(f *ast.FuncDecl) string {
	if f.Recv == nil || len(f.Recv.List) != 1 {
		return ""
	}
	t := f.Recv.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
			continue
		case *ast.IndexExpr:
			t = x.X
			continue
		case *ast.IndexListExpr:
			t = x.X
			continue
		case *ast.ParenExpr:
			t = x.X
			continue
		case *ast.Ident:
			return x.Name
		}
		return ""
	}
}

// UsesOf lists the top-level names declaration n refers to: identifiers the
// parser did not resolve in the chunk, and those it resolved to the
// chunk's own top-level names (top), less the names n declares itself. A
// field, a selector's name and a composite literal's key are no uses.
func UsesOf(n ast.Node, top map[string]bool, own []string) []string {
	seen := map[string]bool{}
	for _, o := range own {
		seen[o] = true
	}
	var uses []string
	InspectRefs(n, func(id *ast.Ident) bool {
		if (id.Obj == nil || top[id.Name]) && !seen[id.Name] && id.Name != "_" {
			seen[id.Name] = true
			uses = append(uses, id.Name)
		}
		return true
	})
	sort.Strings(uses)
	return uses
}

// InspectRefs calls ref for each identifier in n that may refer to a
// top-level name, in source order, until ref returns false. A field's,
// a selector's, a composite literal key's, a label's, an import's and a
// declaration's own name are not such identifiers.
func InspectRefs(n ast.Node, ref func(*ast.Ident) bool) {
	stopped := false
	var visit func(ast.Node) bool
	visit = func(m ast.Node) bool {
		if stopped {
			return false
		}
		switch m := m.(type) {
		case *ast.SelectorExpr:
			ast.Inspect(m.X, visit)
			return false
		case *ast.KeyValueExpr:
			if _, ok := m.Key.(*ast.Ident); !ok {
				ast.Inspect(m.Key, visit)
			}
			ast.Inspect(m.Value, visit)
			return false
		case *ast.Field:
			if m.Type != nil {
				ast.Inspect(m.Type, visit)
			}
			return false
		case *ast.LabeledStmt:
			ast.Inspect(m.Stmt, visit)
			return false
		case *ast.BranchStmt:
			return false
		case *ast.FuncDecl:
			if m.Recv != nil {
				ast.Inspect(m.Recv, visit)
			}
			ast.Inspect(m.Type, visit)
			if m.Body != nil {
				ast.Inspect(m.Body, visit)
			}
			return false
		case *ast.TypeSpec:
			if m.TypeParams != nil {
				ast.Inspect(m.TypeParams, visit)
			}
			ast.Inspect(m.Type, visit)
			return false
		case *ast.ValueSpec:
			if m.Type != nil {
				ast.Inspect(m.Type, visit)
			}
			for _, v := range m.Values {
				ast.Inspect(v, visit)
			}
			return false
		case *ast.ImportSpec:
			return false
		case *ast.Ident:
			stopped = !ref(m)
		}
		return true
	}
	ast.Inspect(n, visit)
}
