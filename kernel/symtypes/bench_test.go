package symtypes

import (
	"go/importer"
	"go/token"
	"go/types"
	"io"
	"os"
	"testing"
)

// benchPaths are the packages a typical cell imports.
var benchPaths = []string{"fmt", "strings", "time", "encoding/json", "net/http"}

func importAll(b *testing.B, imp types.Importer) {
	for _, p := range benchPaths {
		if _, err := imp.Import(p); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkImportWarm imports the packages from a warm Importer: what every
// cell after the first pays.
func BenchmarkImportWarm(b *testing.B) {
	im := newGocl()
	importAll(b, im)
	b.ResetTimer()
	for b.Loop() {
		importAll(b, im)
	}
}

// BenchmarkImportCold imports the packages into a fresh Importer: what the
// first cell pays.
func BenchmarkImportCold(b *testing.B) {
	for b.Loop() {
		importAll(b, newGocl())
	}
}

// BenchmarkToolchainCold is the comparison: go/types' own importer, reading
// the toolchain's export data (located once, outside the loop), into a fresh
// importer each time.
func BenchmarkToolchainCold(b *testing.B) {
	oracle(b) // fills oracleExports
	lookup := func(path string) (io.ReadCloser, error) { return os.Open(oracleExports[path]) }
	for b.Loop() {
		importAll(b, importer.ForCompiler(token.NewFileSet(), "gc", lookup))
	}
}
