package engine

import (
	"fmt"

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
