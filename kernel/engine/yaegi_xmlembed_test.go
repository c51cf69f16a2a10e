package engine

import (
	"strings"
	"testing"
)

// TestXMLEmbeddedRefused checks that a cell passing encoding/xml a value of
// a cell's struct with an embedded struct is refused before it prints
// anything, and that a struct without one still marshals.
func TestXMLEmbeddedRefused(t *testing.T) {
	e := newEngine(t)
	ok(t, e, "import \"encoding/xml\"\ntype Address struct{ City string }\ntype Person struct {\n\tName string\n\tAddress\n}")
	for _, c := range []struct{ name, src string }{
		{"Marshal", "fmt.Println(\"before\")\nb, _ := xml.Marshal(Person{Name: \"Ann\", Address: Address{City: \"Oslo\"}})\nfmt.Println(string(b))"},
		{"Unmarshal", "fmt.Println(\"before\")\nvar ps []Person\n_ = xml.Unmarshal([]byte(\"<Person></Person>\"), &ps)"},
		{"Encode", "fmt.Println(\"before\")\n_ = xml.NewEncoder(os.Stdout).Encode(&Person{})"},
	} {
		res, r := run(t, e, c.src)
		if res.Err == nil || !strings.Contains(res.Err.Value, "encoding/xml cannot see the embedded fields") {
			t.Errorf("%s: %+v", c.name, res.Err)
		}
		if out := r.text("stdout"); out != "" {
			t.Errorf("%s: the refused cell printed %q", c.name, out)
		}
	}
	_, r := ok(t, e, "type W struct {\n\tXMLName xml.Name `xml:\"w\"`\n\tCity string\n}\nb, _ := xml.Marshal(W{City: \"Oslo\"})\nfmt.Println(string(b))")
	expect(t, "no embedded struct", r.text("stdout"), "<w><City>Oslo</City></w>\n")
}
