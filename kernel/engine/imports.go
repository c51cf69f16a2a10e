package engine

import (
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/seed43a1e1ab/gocl/kernel/symbols/stdlib/catalog"
)

// importRefusal is the message of the ImportError for a package cells cannot
// import: why, for the standard packages the catalog refuses, and what to do.
func importRefusal(ipath string) string {
	if why, ok := catalog.Refused[ipath]; ok {
		return fmt.Sprintf("package %q cannot be imported in a cell: %s", ipath, why)
	}
	return fmt.Sprintf("package %q is not available: cells can import the Go standard library and the packages "+
		"built into gocl; `gocl packages` lists them", ipath)
}

// importName is the name an import of ipath binds without an explicit name:
// the last element of the path, or the one before a major-version suffix
// ("math/rand/v2" binds rand), as Go names such packages.
func importName(ipath string) string {
	base := path.Base(ipath)
	if dir := path.Dir(ipath); dir != "." && len(base) > 1 && base[0] == 'v' && strings.Trim(base[1:], "0123456789") == "" {
		return path.Base(dir)
	}
	return base
}

// cellImports returns what the cell's own import declarations import: the
// name each binds (its alias, or the path's package name) to its path.
func cellImports(ps []*parsed) map[string]string {
	out := map[string]string{}
	for _, p := range ps {
		if p.kind != kindImport || p.file == nil {
			continue
		}
		for _, spec := range p.file.Imports {
			path, err := strconv.Unquote(spec.Path.Value)
			if err != nil {
				continue
			}
			name := importName(path)
			if spec.Name != nil {
				name = spec.Name.Name
			}
			out[name] = path
		}
	}
	return out
}
