// gocl patch: an io.Reader embedded beside another field is found when the struct goes to compiled code by value.
package main

import (
	"fmt"
	"io"
	"strings"
)

type namedReader struct {
	io.Reader
	name string
}

type counter struct {
	n int
	namedReader
}

func main() {
	r := namedReader{strings.NewReader("hello"), "x"}
	b, err := io.ReadAll(r)
	fmt.Println(string(b), err, r.name)
	c := counter{1, namedReader{strings.NewReader("deep"), "y"}}
	b, err = io.ReadAll(c)
	fmt.Println(string(b), err, c.n)
	p := &namedReader{strings.NewReader("ptr"), "z"}
	b, _ = io.ReadAll(p)
	fmt.Println(string(b))
}

// Output:
// hello <nil> x
// deep <nil> 1
// ptr
