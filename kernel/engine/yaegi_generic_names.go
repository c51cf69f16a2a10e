package engine

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"sort"
	"strings"
	"sync"

	"github.com/seed43a1e1ab/gocl/kernel/symbols/stdlib"
)

// yaegi v0.16.1 caches the instances of generic functions by their bare
// name, so a cell's own generic Reverse called with the type arguments of an
// earlier slices.Reverse runs slices.Reverse's body, or the other way
// round: a silent wrong answer. A cell that declares a generic function
// with the name of a generic function of the interpreted standard packages
// (slices, maps, cmp, iter) is refused, with the rename to make. Upgrading
// yaegi past this bug means deleting this file and its call.

var (
	genericNamesOnce sync.Once
	genericNames     map[string][]string // function name -> the packages that declare one
)

// stdGenericNames lists the generic functions of the interpreted standard
// packages, by name.
func stdGenericNames() map[string][]string {
	genericNamesOnce.Do(func() {
		genericNames = map[string][]string{}
		fset := token.NewFileSet()
		for _, src := range stdlib.Sources() {
			f, err := parser.ParseFile(fset, src.Path+".go", src.Code, parser.SkipObjectResolution)
			if err != nil {
				continue
			}
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Type.TypeParams != nil && fd.Name.IsExported() {
					genericNames[fd.Name.Name] = append(genericNames[fd.Name.Name], src.Path)
				}
			}
		}
		for _, ps := range genericNames {
			sort.Strings(ps)
		}
	})
	return genericNames
}

// refuseGenericNameClash is the compile error for a generic function whose
// name yaegi would mix up with a standard package's (see above).
func (e *Engine) refuseGenericNameClash(name string, ps []*parsed) *CellError {
	names := stdGenericNames()
	for _, p := range ps {
		if p.file == nil {
			continue
		}
		for _, d := range p.file.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv != nil || fd.Type.TypeParams == nil || len(fd.Type.TypeParams.List) == 0 {
				continue
			}
			pkgs := names[fd.Name.Name]
			if len(pkgs) == 0 {
				continue
			}
			quals := make([]string, len(pkgs))
			for i, pk := range pkgs {
				quals[i] = pk + "." + fd.Name.Name
			}
			return e.errorAt(name, "CompileError", fmt.Sprintf("a generic function named %s is not supported in a cell: "+
				"the interpreter (yaegi v0.16.1) keeps generic instances by bare name, so it would mix this %s up with %s "+
				"and run the wrong one; give it another name (%s, or %sOf)", fd.Name.Name, fd.Name.Name,
				strings.Join(quals, " and "), strings.ToLower(fd.Name.Name[:1])+fd.Name.Name[1:], fd.Name.Name), fd.Name.Pos(), nil)
		}
	}
	return nil
}

var passGenericNames = pass{
	name:     "generic-names",
	bug:      "instances of generic functions are cached by bare name: a cell's Reverse runs slices.Reverse's body",
	file:     "yaegi_generic_names.go",
	changes:  "refuses",
	userOnly: true,
	run:      func(c *cellRun) *CellError { return c.e.refuseGenericNameClash(c.name, c.ps) },
}
