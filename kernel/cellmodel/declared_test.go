package cellmodel

import (
	"fmt"
	"strings"
	"testing"
)

// TestDeclarations pins what the crash replay is told of each kind of
// declaration; a builtin's name (string) counts as a use, as it always
// has: the supervisor finds no cell that declares it.
func TestDeclarations(t *testing.T) {
	src := `import "strings"
type Name string
func (n Name) Upper() Name { return Name(strings.ToUpper(string(n))) }
func greet(n Name) string { return "hi " + string(n.Upper()) + sep }
func init() {}
x, _ := 1, 2
var y = greet("a")
const sep = "!"
`
	c, err := Parse(src, Options{Name: "cell4"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range c.Parts {
		for _, d := range Declarations("cell4", p, c.Map) {
			if d.Cell != "cell4" {
				t.Errorf("%+v: cell %q", d, d.Cell)
			}
			first := strings.SplitN(d.Text, "\n", 2)[0]
			got = append(got, fmt.Sprintf("%s %v %d:%d uses=%v %q", d.Kind, d.Names, d.Line, d.Col, d.Uses, first))
		}
	}
	want := []string{
		`import [] 1:1 uses=[] "import \"strings\""`,
		`type [Name] 2:1 uses=[string] "type Name string"`,
		`method [Name.Upper] 3:1 uses=[Name string strings] "func (n Name) Upper() Name { return Name(strings.ToUpper(string(n))) }"`,
		`func [greet] 4:1 uses=[Name sep string] "func greet(n Name) string { return \"hi \" + string(n.Upper()) + sep }"`,
		`var [x] 0:0 uses=[] ""`,
		`var [y] 0:0 uses=[] ""`,
		`const [sep] 8:1 uses=[] "const sep = \"!\""`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("Declarations:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestRecvTypeName(t *testing.T) {
	src := "func (t *T[K]) A() {}\nfunc (U) B() {}\nfunc ((*V)) C() {}\n"
	c, err := Parse(src, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range Declarations("c", c.Parts[0], c.Map) {
		got = append(got, d.Names...)
	}
	if want := "T.A U.B V.C"; strings.Join(got, " ") != want {
		t.Errorf("methods %v, want %s", got, want)
	}
}
