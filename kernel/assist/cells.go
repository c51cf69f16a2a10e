package assist

import (
	"github.com/seed43a1e1ab/gocl/kernel/assist/internal/docgen"
	"go/ast"
	"go/token"
	"strings"
)

// userDecl is a name the user declared in a cell.
type userDecl struct {
	kind   string   // "func", "type", "var", "const", "method"
	name   string   // for methods: "T.M"
	decl   string   // declaration text: signature for funcs, spec for types and vars
	doc    string   // doc comment
	source string   // full source text of the declaration
	typ    ast.Expr // vars: declared type; funcs and methods: first result type
	value  ast.Expr // vars declared with := or = and no type: the value
	spec   *ast.TypeSpec
}

// cellDecls holds what one or more cells declared; later declarations win.
type cellDecls struct {
	names   map[string]*userDecl            // top-level funcs, types, vars, consts
	methods map[string]map[string]*userDecl // type name -> method name -> method
}

func newCellDecls() *cellDecls {
	return &cellDecls{names: map[string]*userDecl{}, methods: map[string]map[string]*userDecl{}}
}

// merge adds the declarations of o to d, o's winning.
func (d *cellDecls) merge(o *cellDecls) {
	for k, v := range o.names {
		d.names[k] = v
	}
	for t, ms := range o.methods {
		if d.methods[t] == nil {
			d.methods[t] = map[string]*userDecl{}
		}
		for k, v := range ms {
			d.methods[t][k] = v
		}
	}
}

// userDecls parses the scope's sources (cached per cell text).
func (a *Assistant) userDecls(sc Scope) *cellDecls {
	all := newCellDecls()
	for _, src := range sc.Sources() {
		a.mu.Lock()
		d, ok := a.parsed[src]
		a.mu.Unlock()
		if !ok {
			d = declsOf(src)
			a.mu.Lock()
			if len(a.parsed) > 4096 {
				a.parsed = map[string]*cellDecls{}
			}
			a.parsed[src] = d
			a.mu.Unlock()
		}
		all.merge(d)
	}
	return all
}

// declsOf finds the declarations of one cell; parts that do not parse are
// skipped.
func declsOf(src string) *cellDecls {
	d := newCellDecls()
	ps, _, _ := parseCell(src)
	for _, p := range ps {
		if p.stmts != nil {
			for _, s := range p.stmts {
				switch s := s.(type) {
				case *ast.DeclStmt:
					d.addGen(p, s.Decl.(*ast.GenDecl))
				case *ast.AssignStmt:
					if s.Tok != token.DEFINE {
						continue
					}
					for i, l := range s.Lhs {
						id, ok := l.(*ast.Ident)
						if !ok || id.Name == "_" {
							continue
						}
						u := &userDecl{kind: "var", name: id.Name, source: p.slice(s)}
						if len(s.Rhs) == len(s.Lhs) {
							u.value = s.Rhs[i]
							u.decl = "var " + id.Name + " = " + p.slice(s.Rhs[i])
						}
						d.names[id.Name] = u
					}
				}
			}
			continue
		}
		for _, decl := range p.file.Decls {
			switch x := decl.(type) {
			case *ast.GenDecl:
				d.addGen(p, x)
			case *ast.FuncDecl:
				d.addFunc(p, x)
			}
		}
	}
	return d
}

func (d *cellDecls) addFunc(p *parsed, f *ast.FuncDecl) {
	u := &userDecl{kind: "func", name: f.Name.Name, doc: docText(f.Doc), source: p.slice(f)}
	if f.Type.Results != nil && len(f.Type.Results.List) > 0 {
		u.typ = f.Type.Results.List[0].Type
	}
	sig := p.slice(f.Type)
	if f.Body != nil {
		u.decl = strings.TrimSpace(p.text[p.fset.Position(f.Pos()).Offset:p.fset.Position(f.Body.Lbrace).Offset])
	} else {
		u.decl = sig
	}
	if f.Recv == nil || len(f.Recv.List) == 0 {
		d.names[u.name] = u
		return
	}
	recv := docgen.TypeName(f.Recv.List[0].Type)
	if recv == "" {
		return
	}
	u.kind = "method"
	if d.methods[recv] == nil {
		d.methods[recv] = map[string]*userDecl{}
	}
	d.methods[recv][f.Name.Name] = u
	u.name = recv + "." + f.Name.Name
}

func (d *cellDecls) addGen(p *parsed, g *ast.GenDecl) {
	for _, s := range g.Specs {
		switch s := s.(type) {
		case *ast.TypeSpec:
			doc := docText(s.Doc)
			if doc == "" {
				doc = docText(g.Doc)
			}
			d.names[s.Name.Name] = &userDecl{kind: "type", name: s.Name.Name, doc: doc,
				decl: "type " + p.slice(s), source: "type " + p.slice(s), spec: s}
		case *ast.ValueSpec:
			doc := docText(s.Doc)
			if doc == "" {
				doc = docText(g.Doc)
			}
			if doc == "" {
				doc = docText(s.Comment)
			}
			kind := "var"
			if g.Tok == token.CONST {
				kind = "const"
			}
			for i, n := range s.Names {
				if n.Name == "_" {
					continue
				}
				u := &userDecl{kind: kind, name: n.Name, doc: doc, typ: s.Type, source: p.slice(s)}
				u.decl = kind + " " + n.Name
				if s.Type != nil {
					u.decl += " " + p.slice(s.Type)
				}
				if i < len(s.Values) {
					u.value = s.Values[i]
					if s.Type == nil {
						u.decl += " = " + p.slice(s.Values[i])
					}
				}
				d.names[n.Name] = u
			}
		}
	}
}

func docText(c *ast.CommentGroup) string {
	if c == nil {
		return ""
	}
	return strings.TrimSpace(c.Text())
}

// structFields returns the field names of a user struct type, with embedded
// fields named by their type, and whether each is embedded.
func structFields(spec *ast.TypeSpec) (names []string, embedded []bool, types []ast.Expr) {
	st, ok := spec.Type.(*ast.StructType)
	if !ok || st.Fields == nil {
		return nil, nil, nil
	}
	for _, f := range st.Fields.List {
		if len(f.Names) == 0 {
			names = append(names, docgen.TypeName(f.Type))
			embedded = append(embedded, true)
			types = append(types, f.Type)
			continue
		}
		for _, n := range f.Names {
			names = append(names, n.Name)
			embedded = append(embedded, false)
			types = append(types, f.Type)
		}
	}
	return names, embedded, types
}

// currentCellNames returns names declared in a half-written cell, read from
// tokens: `x :=`, `x, y :=`, `var x`, `const x`, `type T`, `func f`.
func currentCellNames(toks []tok, skip int) map[string]string {
	out := map[string]string{}
	for i, t := range toks {
		if t.t != token.IDENT || i == skip {
			continue
		}
		if i > 0 {
			switch toks[i-1].t {
			case token.VAR:
				out[t.lit] = "variable"
			case token.CONST:
				out[t.lit] = "constant"
			case token.TYPE:
				out[t.lit] = "type"
			case token.FUNC:
				out[t.lit] = "function"
			}
		}
		// x, y := ...
		j := i + 1
		for j+1 < len(toks) && toks[j].t == token.COMMA && toks[j+1].t == token.IDENT {
			j += 2
		}
		if j < len(toks) && toks[j].t == token.DEFINE {
			out[t.lit] = "variable"
		}
	}
	return out
}
