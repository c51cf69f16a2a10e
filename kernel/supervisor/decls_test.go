package supervisor

import (
	"reflect"
	"testing"
)

func TestDeclarationsKeepsOnlyWhatHasNoEffects(t *testing.T) {
	src := `import "strconv"
x := launch()
func f(a int) int { return a + 1 }
type P struct{ X, Y int }
func (p P) Sum() int { return p.X + p.Y }
var v = launch()
const c = 3
func() { launch() }()
fmt.Println(f(1))
`
	decls, names := declarations(src)
	want := "import \"strconv\"\n\nfunc f(a int) int { return a + 1 }\n\ntype P struct{ X, Y int }\n\n" +
		"func (p P) Sum() int { return p.X + p.Y }\n\nconst c = 3"
	if decls != want {
		t.Errorf("declarations:\n%s\nwant:\n%s", decls, want)
	}
	if !reflect.DeepEqual(names, []string{"f", "P", "Sum"}) {
		t.Errorf("names = %q", names)
	}
}

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"2GB": 2 << 30, "512MiB": 512 << 20, "50%": 4 << 30, "off": 0, "1.5g": 3 << 29} {
		got, err := ParseSize(in, 8<<30)
		if err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, bad := range []string{"lots", "1KB", "150%", "-3GB"} {
		if _, err := ParseSize(bad, 8<<30); err == nil {
			t.Errorf("ParseSize(%q) gave no error", bad)
		}
	}
}
