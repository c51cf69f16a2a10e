package engine

import (
	"fmt"
	"path"
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
