package supervisor

import (
	"reflect"
	"strings"
	"testing"

	"github.com/seed43a1e1ab/gocl/kernel/cellio"
)

func TestReplayDeclaresAgainOnlyWhatItCanExactly(t *testing.T) {
	d := func(cell, kind, names, text string, uses ...string) cellio.Declared {
		r := cellio.Declared{Cell: cell, Kind: kind, Text: text, Uses: uses}
		if names != "" {
			r.Names = strings.Split(names, ",")
		}
		return r
	}
	recs := []cellio.Declared{
		d("cell1", "import", "", `import "strconv"`),
		d("cell1", "func", "kept", "func kept(a int) int { return a * 3 }"),
		d("cell1", "const", "scale", "const scale = 2"),
		d("cell1", "func", "f", "func f() int { return scale * 3 }", "scale"),
		d("cell2", "var", "name", ""),
		d("cell2", "func", "Name", "func Name() string { return name }", "name"),
		d("cell2", "func", "Twice", "func Twice() string { return Name() + Name() }", "Name"),
		d("cell3", "var", "scale", ""),
		d("cell4", "func", "g", "func g() int { return 1 }"),
		d("cell5", "var", "g", ""),
		d("cell6", "main", "main", ""),
		d("cell7", "type", "P", "type P struct{ X int }"),
		d("cell7", "var", "sep", ""),
		d("cell7", "method", "P.String", `func (p P) String() string { return sep }`, "P", "sep"),
		{Cell: "cell8", Kind: "compiled", Names: []string{"Table", "Size"}, Text: "//gocl:compile ...", Lost: "compiled cell #8 has package variables (Table)"},
	}
	p := planReplay(recs, nil)
	var texts []string
	for _, r := range p.decls {
		texts = append(texts, r.Text)
	}
	if want := []string{`import "strconv"`, "func kept(a int) int { return a * 3 }", "const scale = 2", "func g() int { return 1 }"}; !reflect.DeepEqual(texts, want) {
		t.Errorf("declared again:\n%q\nwant\n%q", texts, want)
	}
	if !reflect.DeepEqual(p.kept, []string{"kept"}) {
		t.Errorf("kept = %q", p.kept)
	}
	for name, want := range map[string]string{
		"name":  "lost in the crash of cell #2; run that cell again",
		"Name":  "it uses name, lost in the crash of cell #2; run that cell again",
		"Twice": "it uses name (through Name), lost in the crash of cell #2; run that cell again",
		"scale": "lost in the crash of cell #3; run that cell again",
		"f":     "it uses scale, lost in the crash of cell #3; run that cell again, then cell #1",
		"g":     "lost in the crash of cell #5; run that cell again",
		"main":  "lost in the crash of cell #6; run that cell again (a func main",
		"P":     "it uses sep (through P.String), lost in the crash of cell #7",
		"Table": "compiled cell #8 has package variables",
		"Size":  "compiled cell #8 has package variables",
	} {
		if !strings.Contains(p.lost[name], want) {
			t.Errorf("lost[%s] = %q, want %q in it", name, p.lost[name], want)
		}
	}
	// A record that failed to replay is lost at the next crash.
	p = planReplay(recs[:2], map[string]string{recordKey(recs[1]): "boom"})
	if !strings.Contains(p.lost["kept"], "could not be declared again: boom") || len(p.decls) != 1 {
		t.Errorf("after a failed replay: lost %q, decls %v", p.lost, p.decls)
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
