package symtypes

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/types"
)

// check type-checks the interpreted sources of path into its package,
// importing through im (whose lock the caller holds).
func (im *Importer) check(path string, codes []string) (*types.Package, error) {
	files := make([]*ast.File, 0, len(codes))
	for i, code := range codes {
		name := fmt.Sprintf("%s/source%d.go", path, i)
		f, err := parser.ParseFile(im.fset, name, code, parser.SkipObjectResolution)
		if err != nil {
			return nil, fmt.Errorf("parse the interpreted source of %s: %w", path, err)
		}
		files = append(files, f)
	}
	pkg := im.pkgs[path]
	if pkg == nil {
		pkg = types.NewPackage(path, files[0].Name.Name)
		im.pkgs[path] = pkg
	}
	conf := &types.Config{Importer: locked{im}}
	if err := types.NewChecker(conf, im.fset, pkg, nil).Files(files); err != nil {
		return nil, fmt.Errorf("type-check the interpreted source of %s: %w", path, err)
	}
	return pkg, nil
}
