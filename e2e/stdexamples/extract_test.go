package stdexamples

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/seed43a1e1ab/gocl/e2e/conformance"
)

// TestExtract extracts the examples of a made-up GOROOT with one example of
// each kind and checks what becomes a program and what is left out, why.
func TestExtract(t *testing.T) {
	root := t.TempDir()
	write := func(rel, src string) {
		p := filepath.Join(root, "src", filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("p/q/example_test.go", `package q_test

import (
	"fmt"
	"strings"
)

type pair struct{ a, b string }

func (p pair) join() string { return p.a + p.b }

func Example_join() {
	fmt.Println(pair{"x", "y"}.join())
	fmt.Println(strings.ToUpper("z"))
	// Output:
	// xy
	// Z
}

func ExampleUnordered() {
	fmt.Println(1)
	fmt.Println(2)
	// Unordered output:
	// 2
	// 1
}

func ExampleNoOutput() {
	fmt.Println(1)
}

func ExampleOther() {
	fmt.Println(helper())
	// Output: 3
}

func ExampleEmpty() {
	// Output:
}
`)
	write("p/q/helper_test.go", "package q_test\n\nfunc helper() int { return 3 }\n")
	write("p/q/internal_test.go", "package q\n\nimport \"fmt\"\n\nfunc ExampleInner() {\n\tfmt.Println(own)\n\t// Output: 1\n}\n")
	write("p/q/other_windows_test.go", "package q_test\n\nfunc ExampleWindows() {\n\t// Output:\n}\n")

	exs, skips, err := Extract(root, []string{"p/q"})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, ex := range exs {
		names = append(names, ex.Name)
	}
	if want := []string{"p/q.ExampleEmpty", "p/q.Example_join"}; !reflect.DeepEqual(names, want) {
		t.Fatalf("extracted %v, want %v", names, want)
	}
	join := exs[1]
	if join.Output != "xy\nZ\n" {
		t.Errorf("Output of %s: %q", join.Name, join.Output)
	}
	for _, want := range []string{"package main", "type pair struct", "func (p pair) join()", "func main() {", `"strings"`} {
		if !strings.Contains(join.Source, want) {
			t.Errorf("the program of %s lacks %q:\n%s", join.Name, want, join.Source)
		}
	}
	if _, ok := conformance.NotebookForm(join.Source); !ok {
		t.Errorf("the program of %s has no notebook form:\n%s", join.Name, join.Source)
	}
	why := map[string]string{}
	for _, s := range skips {
		why[s.Name] = s.Reason
	}
	for name, reason := range map[string]string{
		"p/q.ExampleUnordered": "unordered",
		"p/q.ExampleNoOutput":  "no // Output:",
		"p/q.ExampleOther":     "outside its file",
		"p/q.ExampleInner":     "internal test",
	} {
		if !strings.Contains(why[name], reason) {
			t.Errorf("%s: left out because %q, want a reason with %q", name, why[name], reason)
		}
	}
	if len(skips) != 4 {
		t.Errorf("left out %v, want 4 (the windows file is not for this system)", skips)
	}
}
