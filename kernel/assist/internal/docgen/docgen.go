// Package docgen extracts the documentation of Go packages with go/doc and
// stores it in a small gzip-compressed JSON form that the kernel embeds, so
// inspection needs no Go toolchain at run time.
package docgen

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/build"
	"go/doc"
	"go/parser"
	"go/printer"
	"go/token"
	"io"
	"path/filepath"
	"sort"
	"strings"
)

// Entry is the documentation of one exported name of a package. Names of
// methods and fields are qualified by their type: "Buffer.Write".
type Entry struct {
	Kind  string `json:"k"`           // "func", "type", "method", "field", "const" or "var"
	Decl  string `json:"d,omitempty"` // declaration text (signature); empty when Group is set
	Doc   string `json:"c,omitempty"` // doc comment
	Group int    `json:"g,omitempty"` // 1 + index into Package.Groups for grouped consts and vars
}

// Package is the documentation of one package.
type Package struct {
	Path     string           `json:"p"`           // import path
	Name     string           `json:"n"`           // package name
	Synopsis string           `json:"s,omitempty"` // first sentence of the package doc
	Groups   []string         `json:"g,omitempty"` // declaration text of const and var groups
	Names    map[string]Entry `json:"e"`
}

// Declaration returns the declaration text of e, resolving const and var
// groups.
func (p *Package) Declaration(e Entry) string {
	if e.Group > 0 && e.Group <= len(p.Groups) {
		return p.Groups[e.Group-1]
	}
	return e.Decl
}

// FromGOROOT builds the documentation of the standard-library package with
// the given import path from the sources in ctx's GOROOT, for ctx's GOOS and
// GOARCH.
func FromGOROOT(ctx *build.Context, path string) (*Package, error) {
	bp, err := ctx.Import(path, "", 0)
	if err != nil {
		return nil, fmt.Errorf("docgen: find %s in GOROOT %s: %w", path, ctx.GOROOT, err)
	}
	return fromBuild(bp, path)
}

// FromDir builds the documentation of the package in dir, recorded under
// importPath. Test files are ignored.
func FromDir(ctx *build.Context, dir, importPath string) (*Package, error) {
	bp, err := ctx.ImportDir(dir, 0)
	if err != nil {
		return nil, fmt.Errorf("docgen: read package in %s: %w", dir, err)
	}
	return fromBuild(bp, importPath)
}

func fromBuild(bp *build.Package, path string) (*Package, error) {
	fset := token.NewFileSet()
	var files []*ast.File
	names := append(append([]string{}, bp.GoFiles...), bp.CgoFiles...)
	sort.Strings(names)
	for _, n := range names {
		f, err := parser.ParseFile(fset, filepath.Join(bp.Dir, n), nil, parser.ParseComments)
		if err != nil {
			return nil, fmt.Errorf("docgen: parse %s: %w", n, err)
		}
		files = append(files, f)
	}
	mode := doc.Mode(0)
	if path == "builtin" {
		mode = doc.AllDecls // builtin's names are lower case
	}
	dp, err := doc.NewFromFiles(fset, files, path, mode)
	if err != nil {
		return nil, fmt.Errorf("docgen: go/doc on %s: %w", path, err)
	}
	return convert(fset, dp), nil
}

func convert(fset *token.FileSet, dp *doc.Package) *Package {
	p := &Package{Path: dp.ImportPath, Name: dp.Name, Synopsis: dp.Synopsis(dp.Doc), Names: map[string]Entry{}}
	if p.Path == "builtin" {
		p.Synopsis = "Predeclared identifiers of Go."
	}
	values := func(vs []*doc.Value, kind string) {
		for _, v := range vs {
			decl := nodeText(fset, v.Decl)
			single := len(v.Decl.Specs) == 1
			g := 0
			if !single {
				p.Groups = append(p.Groups, decl)
				g = len(p.Groups)
			}
			for _, s := range v.Decl.Specs {
				vs := s.(*ast.ValueSpec)
				// The spec's own comment first, then the group's.
				d := v.Doc
				if own := vs.Doc.Text() + vs.Comment.Text(); own != "" && own != d {
					d = strings.TrimSpace(own + "\n" + d)
				}
				for _, n := range vs.Names {
					if !ast.IsExported(n.Name) && p.Path != "builtin" {
						continue
					}
					e := Entry{Kind: kind, Doc: strings.TrimSpace(d), Group: g}
					if single {
						e.Decl = decl
					}
					p.Names[n.Name] = e
				}
			}
		}
	}
	funcs := func(fs []*doc.Func, prefix, kind string) {
		for _, f := range fs {
			f.Decl.Body = nil
			p.Names[prefix+f.Name] = Entry{Kind: kind, Decl: nodeText(fset, f.Decl), Doc: strings.TrimSpace(f.Doc)}
		}
	}
	values(dp.Consts, "const")
	values(dp.Vars, "var")
	funcs(dp.Funcs, "", "func")
	for _, t := range dp.Types {
		values(t.Consts, "const")
		values(t.Vars, "var")
		funcs(t.Funcs, "", "func")
		funcs(t.Methods, t.Name+".", "method")
		p.Names[t.Name] = Entry{Kind: "type", Decl: nodeText(fset, t.Decl), Doc: strings.TrimSpace(t.Doc)}
		for _, s := range t.Decl.Specs {
			ts, ok := s.(*ast.TypeSpec)
			if !ok || ts.Name.Name != t.Name {
				continue
			}
			members(fset, p, t.Name, ts.Type)
		}
	}
	return p
}

// members records the exported fields of a struct type and the methods of an
// interface type as "T.Name" entries.
func members(fset *token.FileSet, p *Package, typ string, x ast.Expr) {
	var list *ast.FieldList
	kind := "field"
	switch t := x.(type) {
	case *ast.StructType:
		list = t.Fields
	case *ast.InterfaceType:
		list, kind = t.Methods, "method"
	default:
		return
	}
	for _, f := range list.List {
		d := ""
		if f.Doc != nil {
			d = f.Doc.Text()
		} else if f.Comment != nil {
			d = f.Comment.Text()
		}
		names := f.Names
		if len(names) == 0 { // embedded
			if id := TypeName(f.Type); id != "" {
				names = []*ast.Ident{{Name: id}}
			}
		}
		for _, n := range names {
			if !ast.IsExported(n.Name) {
				continue
			}
			decl := n.Name + " " + nodeText(fset, f.Type)
			if kind == "method" {
				decl = "func (" + typ + ") " + n.Name + strings.TrimPrefix(nodeText(fset, f.Type), "func")
			} else if len(f.Names) == 0 {
				decl = nodeText(fset, f.Type) // embedded field
			}
			p.Names[typ+"."+n.Name] = Entry{Kind: kind, Decl: decl, Doc: strings.TrimSpace(d)}
		}
	}
}

// TypeName returns the type name in a receiver or embedded field type:
// T, *T, pkg.T, T[P], (T).
func TypeName(x ast.Expr) string {
	switch t := x.(type) {
	case *ast.Ident:
		return t.Name
	case *ast.StarExpr:
		return TypeName(t.X)
	case *ast.SelectorExpr:
		return t.Sel.Name
	case *ast.IndexExpr:
		return TypeName(t.X)
	case *ast.IndexListExpr:
		return TypeName(t.X)
	case *ast.ParenExpr:
		return TypeName(t.X)
	}
	return ""
}

func nodeText(fset *token.FileSet, n any) string {
	var b bytes.Buffer
	cfg := printer.Config{Mode: printer.UseSpaces | printer.TabIndent, Tabwidth: 8}
	if err := cfg.Fprint(&b, fset, n); err != nil {
		return ""
	}
	return b.String()
}

// Sort orders pkgs by import path.
func Sort(pkgs []*Package) {
	sort.Slice(pkgs, func(i, j int) bool { return pkgs[i].Path < pkgs[j].Path })
}

// Write stores pkgs, sorted by import path, as gzip-compressed JSON.
func Write(w io.Writer, pkgs []*Package) error {
	Sort(pkgs)
	zw, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	if err := json.NewEncoder(zw).Encode(pkgs); err != nil {
		return fmt.Errorf("docgen: encode: %w", err)
	}
	return zw.Close()
}

// Read decodes what Write stored.
func Read(r io.Reader) ([]*Package, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("docgen: not a gzip doc file: %w", err)
	}
	var pkgs []*Package
	if err := json.NewDecoder(zr).Decode(&pkgs); err != nil {
		return nil, fmt.Errorf("docgen: decode doc file: %w", err)
	}
	return pkgs, nil
}
