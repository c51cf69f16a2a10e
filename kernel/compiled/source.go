package compiled

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/scanner"
	"go/token"
	"go/types"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/seed43a1e1ab/gocl/kernel/cellmodel"
)

// Directive is the first line of a compiled cell.
const Directive = "//gocl:compile"

// IsCompiled reports whether code is a compiled cell: its first non-blank
// line is the directive.
func IsCompiled(code string) bool {
	for _, line := range strings.Split(code, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		return line == Directive || strings.HasPrefix(line, Directive+" ")
	}
	return false
}

// Decl is one top-level name a compiled cell declares.
type Decl struct {
	Name    string
	Kind    string // "func", "var", "const" or "type"
	Generic bool   // a generic func or type: compiled cells can use it, the interpreter cannot
	Text    string // the declaration's first line, for inspection
	Spec    string // a type's whole spec as written ("P struct{ X int }")

	params, results int  // a func's numbers of parameters and results
	variadic        bool // its last parameter is ...T
}

// AutoImports are the packages a compiled cell may name without an import
// line, as interpreted cells do.
var AutoImports = map[string]string{
	"fmt": "fmt", "os": "os", "time": "time", "math": "math", "strings": "strings", "sort": "sort",
	"errors": "errors", "sync": "sync", "slices": "slices", "maps": "maps",
	"cl": ModulePath + "/clapi", "cell": ModulePath + "/cell", "display": ModulePath + "/kernel/display",
}

// cellSource is a parsed compiled cell.
type cellSource struct {
	src     string
	decls   []Decl
	imports []string        // import paths the cell names itself
	named   map[string]bool // names its imports bind
	free    map[string]bool // names used but declared nowhere in the cell
	uses    []use           // where each free name is used
	access  string          // exported accessors of its unexported names (see accessors)
}

// use is one use of a free name, at a byte offset of the cell source.
type use struct {
	name string
	off  int
}

// Diag is one compiler message at a cell position.
type Diag struct {
	Cell      string // the kernel's name of the cell, "cell5"
	Line, Col int
	Msg       string
}

// CompileError is a compiled cell that does not build. Diags are in the
// compiler's order; Output is what the toolchain printed, for messages with
// no cell position.
type CompileError struct {
	Diags  []Diag
	Output string
}

func (e *CompileError) Error() string {
	if len(e.Diags) == 0 {
		return strings.TrimSpace(e.Output)
	}
	d := e.Diags[0]
	return fmt.Sprintf("%s:%d:%d: %s", d.Cell, d.Line, d.Col, d.Msg)
}

// parseCell parses the cell called name. The package clause is put on the
// first line (the directive's), so lines are the cell's own.
func parseCell(name, src string) (*cellSource, error) {
	fset := token.NewFileSet()
	const pkg = "package cell; "
	f, err := parser.ParseFile(fset, name+".go", pkg+src, parser.DeclarationErrors|parser.SkipObjectResolution)
	if err != nil {
		var list scanner.ErrorList
		if errors.As(err, &list) {
			ce := &CompileError{}
			for _, e := range list {
				col := e.Pos.Column
				if e.Pos.Line == 1 {
					col -= len(pkg)
				}
				ce.Diags = append(ce.Diags, Diag{Cell: name, Line: e.Pos.Line, Col: col, Msg: e.Msg})
			}
			return nil, ce
		}
		return nil, err
	}
	c := &cellSource{src: src, named: map[string]bool{}, free: map[string]bool{}}
	// The cell's model of positions: the file is the package clause, then
	// the cell byte for byte.
	m := cellmodel.NewPosMap(name, src)
	m.Add(fset.File(f.Pos()), len(pkg), 0, len(src))
	whole := func(n ast.Node) string {
		a, ok1 := m.Position(n.Pos())
		b, ok2 := m.Position(n.End())
		if !ok1 || !ok2 || a.Offset > b.Offset {
			return ""
		}
		return src[a.Offset:b.Offset]
	}
	text := func(n ast.Node) string {
		s, _, _ := strings.Cut(whole(n), "\n")
		return s
	}
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		c.imports = append(c.imports, p)
		n := p[strings.LastIndex(p, "/")+1:]
		if imp.Name != nil {
			n = imp.Name.Name
		}
		c.named[n] = true
	}
	constraints := map[string]bool{}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv != nil || d.Name.Name == "init" || d.Name.Name == "main" || d.Name.Name == "_" {
				continue
			}
			fd := Decl{Name: d.Name.Name, Kind: "func", Generic: d.Type.TypeParams != nil, Text: text(d)}
			fd.params, fd.variadic = fieldCount(d.Type.Params)
			fd.results, _ = fieldCount(d.Type.Results)
			c.decls = append(c.decls, fd)
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					generic := s.TypeParams != nil || isConstraint(s.Type, constraints)
					if isConstraint(s.Type, constraints) {
						constraints[s.Name.Name] = true
					}
					c.decls = append(c.decls, Decl{Name: s.Name.Name, Kind: "type", Generic: generic, Text: "type " + text(s), Spec: whole(s)})
				case *ast.ValueSpec:
					for _, id := range s.Names {
						if id.Name != "_" {
							c.decls = append(c.decls, Decl{Name: id.Name, Kind: d.Tok.String(), Text: d.Tok.String() + " " + text(s)})
						}
					}
				}
			}
		}
	}
	c.free, c.uses = freeNames(fset, f, m)
	c.access = accessors(fset, f)
	return c, nil
}

// fieldCount counts the entries of a parameter or result list and says
// whether the last is variadic.
func fieldCount(fl *ast.FieldList) (n int, variadic bool) {
	if fl == nil {
		return 0, false
	}
	for _, f := range fl.List {
		n += max(len(f.Names), 1)
		_, variadic = f.Type.(*ast.Ellipsis)
	}
	return n, variadic
}

// wrapper returns a generic function, named name, that wraps a func of d's
// shape so that its panics carry cell frames (rt.Rethrow); type inference
// gives it the func's own types, so no type needs naming here.
func wrapper(name string, d Decl) string {
	var tp, ps, args, rs []string
	for i := 0; i < d.params; i++ {
		tp = append(tp, fmt.Sprintf("P%d", i))
		typ := fmt.Sprintf("P%d", i)
		arg := fmt.Sprintf("p%d", i)
		if d.variadic && i == d.params-1 {
			typ, arg = "..."+typ, arg+"..."
		}
		ps = append(ps, fmt.Sprintf("p%d %s", i, typ))
		args = append(args, arg)
	}
	for i := 0; i < d.results; i++ {
		tp = append(tp, fmt.Sprintf("R%d", i))
		rs = append(rs, fmt.Sprintf("R%d", i))
	}
	sig := "func(" + strings.Join(ps, ", ") + ")"
	if len(rs) > 0 {
		sig += " (" + strings.Join(rs, ", ") + ")"
	}
	ret := "return "
	if len(rs) == 0 {
		ret = ""
	}
	tparams := ""
	if len(tp) > 0 {
		tparams = "[" + strings.Join(tp, ", ") + " any]"
	}
	return fmt.Sprintf("func %s%s(f %s) %s {\n\treturn %s { defer goclrt.Rethrow(); %sf(%s) }\n}\n\n",
		name, tparams, sig, sig, sig, ret, strings.Join(args, ", "))
}

// isConstraint reports whether t is an interface usable only as a type
// constraint: it has a type set (~T, A | B, a non-interface type) or embeds
// such an interface of the cell (known). Such types are not exported to the
// interpreter (Go has no value of them).
func isConstraint(t ast.Expr, known map[string]bool) bool {
	it, ok := t.(*ast.InterfaceType)
	if !ok || it.Methods == nil {
		return false
	}
	for _, f := range it.Methods.List {
		if len(f.Names) > 0 {
			continue
		}
		switch x := f.Type.(type) {
		case *ast.BinaryExpr, *ast.UnaryExpr:
			return true
		case *ast.Ident:
			if known[x.Name] || types.Universe.Lookup(x.Name) != nil && x.Name != "error" && x.Name != "any" {
				return true
			}
		}
	}
	return false
}

// freeNames returns the names f uses that nothing in f declares: the names
// go/types reports undefined when every import is an empty package. They are
// what earlier compiled cells and the automatic imports may provide.
func freeNames(fset *token.FileSet, f *ast.File, m *cellmodel.PosMap) (map[string]bool, []use) {
	free := map[string]bool{}
	var uses []use
	conf := types.Config{
		Importer: emptyImporter{},
		Error: func(err error) {
			if te, ok := err.(types.Error); ok {
				if n, ok := strings.CutPrefix(te.Msg, "undefined: "); ok && !strings.Contains(n, ".") {
					free[n] = true
					off := -1 // not the cell's: build.go's check of each use skips it
					if p, ok := m.Position(te.Pos); ok {
						off = p.Offset
					}
					uses = append(uses, use{name: n, off: off})
				}
			}
		},
	}
	conf.Check("cell", fset, []*ast.File{f}, nil)
	sort.Slice(uses, func(i, j int) bool { return uses[i].off < uses[j].off })
	return free, uses
}

// emptyImporter imports every path as a complete package with nothing in it.
type emptyImporter struct{}

func (emptyImporter) Import(path string) (*types.Package, error) {
	name := path[strings.LastIndex(path, "/")+1:]
	if n, _, ok := strings.Cut(name, "."); ok {
		name = n
	}
	p := types.NewPackage(path, name)
	p.MarkComplete()
	return p, nil
}

// accessPrefix starts the exported accessor of an unexported name.
const accessPrefix = "Gocl_"

// accessors returns Go declarations that make the unexported names of f
// reachable from later cells' packages: an alias for a type or constant, a
// pointer for a variable (so that it stays the same variable), a forwarding
// function for a function (generic ones included).
func accessors(fset *token.FileSet, f *ast.File) string {
	var b strings.Builder
	pr := func(n any) string {
		var buf strings.Builder
		printer.Fprint(&buf, fset, n)
		return buf.String()
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			n := d.Name.Name
			if d.Recv != nil || exported(n) || n == "init" || n == "main" || n == "_" {
				continue
			}
			ft := &ast.FuncType{TypeParams: d.Type.TypeParams, Params: &ast.FieldList{}, Results: d.Type.Results}
			var args []string
			i := 0
			for _, fld := range d.Type.Params.List {
				for k := 0; k < max(len(fld.Names), 1); k++ {
					name := fmt.Sprintf("gocl_p%d", i)
					i++
					ft.Params.List = append(ft.Params.List, &ast.Field{Names: []*ast.Ident{{Name: name}}, Type: fld.Type})
					if _, ok := fld.Type.(*ast.Ellipsis); ok {
						name += "..."
					}
					args = append(args, name)
				}
			}
			callee := n
			if d.Type.TypeParams != nil {
				var tps []string
				for _, fld := range d.Type.TypeParams.List {
					for _, id := range fld.Names {
						tps = append(tps, id.Name)
					}
				}
				callee += "[" + strings.Join(tps, ", ") + "]"
			}
			ret := ""
			if d.Type.Results != nil && len(d.Type.Results.List) > 0 {
				ret = "return "
			}
			sig := strings.TrimPrefix(pr(ft), "func")
			fmt.Fprintf(&b, "func %s%s%s { %s%s(%s) }\n", accessPrefix, n, sig, ret, callee, strings.Join(args, ", "))
		case *ast.GenDecl:
			for _, sp := range d.Specs {
				switch sp := sp.(type) {
				case *ast.TypeSpec:
					n := sp.Name.Name
					if exported(n) || n == "_" {
						continue
					}
					if sp.TypeParams == nil {
						fmt.Fprintf(&b, "type %s%s = %s\n", accessPrefix, n, n)
						continue
					}
					var tps []string
					for _, fld := range sp.TypeParams.List {
						for _, id := range fld.Names {
							tps = append(tps, id.Name)
						}
					}
					tp := strings.TrimSuffix(strings.TrimPrefix(pr(&ast.FuncType{TypeParams: sp.TypeParams, Params: &ast.FieldList{}}), "func"), "()")
					fmt.Fprintf(&b, "type %s%s%s = %s[%s]\n", accessPrefix, n, tp, n, strings.Join(tps, ", "))
				case *ast.ValueSpec:
					for _, id := range sp.Names {
						if exported(id.Name) || id.Name == "_" {
							continue
						}
						if d.Tok == token.CONST {
							fmt.Fprintf(&b, "const %s%s = %s\n", accessPrefix, id.Name, id.Name)
						} else {
							fmt.Fprintf(&b, "var %s%s = &%s\n", accessPrefix, id.Name, id.Name)
						}
					}
				}
			}
		}
	}
	return b.String()
}

// exported reports whether name is visible to another package.
func exported(name string) bool {
	r := []rune(name)
	return len(r) > 0 && unicode.IsUpper(r[0])
}

// exportsFile is the generated file that registers the symbols of the cell
// package pkgPath with the kernel.
func exportsFile(pkgName, pkgPath string, decls []Decl) string {
	var b strings.Builder
	fmt.Fprintf(&b, "// Code generated by gocl for a compiled cell; DO NOT EDIT.\n\npackage %s\n\n", pkgName)
	b.WriteString("import (\n\tgoclreflect \"reflect\"\n\n\tgoclrt \"" + ModulePath + "/kernel/compiled/rt\"\n)\n\n")
	b.WriteString("func init() {\n\tgoclrt.Register(" + strconv.Quote(pkgPath) + ", map[string]goclreflect.Value{\n")
	var wrappers strings.Builder
	ds := append([]Decl(nil), decls...)
	sort.Slice(ds, func(i, j int) bool { return ds[i].Name < ds[j].Name })
	for _, d := range ds {
		if d.Generic {
			continue
		}
		var v string
		switch d.Kind {
		case "func":
			w := "gocl_wrap_" + d.Name
			wrappers.WriteString(wrapper(w, d))
			v = "goclreflect.ValueOf(" + w + "(" + d.Name + "))"
		case "var":
			v = "goclreflect.ValueOf(&" + d.Name + ").Elem()"
		case "const":
			v = "goclreflect.ValueOf(" + d.Name + ")"
		case "type":
			v = "goclreflect.ValueOf((*" + d.Name + ")(nil))"
		}
		fmt.Fprintf(&b, "\t\t%q: %s,\n", d.Name, v)
	}
	b.WriteString("\t})\n}\n\n")
	b.WriteString(wrappers.String())
	return b.String()
}
