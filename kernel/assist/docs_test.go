package assist

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/seed43a1e1ab/gocl/kernel/assist/internal/docgen"
)

// TestModuleDocsCurrent fails when this module's packages changed their docs
// since docdata/mod.json.gz was generated. The standard-library part is not
// checked: it changes with the Go version only.
func TestModuleDocsCurrent(t *testing.T) {
	fresh, skipped, err := docgen.BuildModule("../..")
	if err != nil {
		t.Fatal(err)
	}
	embedded, err := docgen.Read(bytes.NewReader(modDocs))
	if err != nil {
		t.Fatal(err)
	}
	docgen.Sort(fresh)
	docgen.Sort(embedded)
	ja, _ := json.Marshal(fresh)
	jb, _ := json.Marshal(embedded)
	if !bytes.Equal(ja, jb) {
		t.Errorf("embedded docs of %s are stale (skipped: %v); run `go generate ./kernel/assist` from the module root and commit kernel/assist/docdata", strings.Join(docgen.ModuleDirs, ", "), skipped)
	}
}

func TestStdDocsLoaded(t *testing.T) {
	for _, c := range []struct{ path, name, want string }{
		{"fmt", "Println", "func Println("},
		{"strings", "Builder.WriteString", "func (b *Builder) WriteString"},
		{"builtin", "append", "func append("},
		{"net/http", "Get", "func Get(url string)"},
	} {
		decl, doc, _, ok := docEntry(c.path, c.name)
		if !ok || !strings.Contains(decl, c.want) || doc == "" {
			t.Errorf("%s.%s: decl %q doc %q ok %v", c.path, c.name, decl, doc, ok)
		}
	}
	if docsErr != nil {
		t.Error(docsErr)
	}
}
