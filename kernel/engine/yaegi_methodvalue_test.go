package engine

import "testing"

// TestMethodValuesBindACopy checks that a method value of a value receiver
// keeps the receiver it was made from, as Go does, and that one of a
// pointer receiver keeps the pointer.
func TestMethodValuesBindACopy(t *testing.T) {
	e := newEngine(t)
	ok(t, e, "type Dog struct{ name string }\nfunc (d Dog) Sound() string { return d.name + \" says woof\" }\n"+
		"type C struct{ n int }\nfunc (c *C) Add(k int) { c.n += k }")
	_, r := ok(t, e, "d := Dog{\"Rex\"}\nf := d.Sound\np := &d\ng := p.Sound\nfs := []func() string{d.Sound}\nd.name = \"Max\"\n"+
		"fmt.Println(f(), g(), fs[0](), d.Sound())\nc := &C{}\nadd := c.Add\nadd(2)\nadd(3)\nfmt.Println(c.n)")
	expect(t, "method values", r.text("stdout"), "Rex says woof Rex says woof Rex says woof Max says woof\n5\n")
}
