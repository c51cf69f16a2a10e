// An io.Reader embedded beside another field, the struct passed by value to
// compiled code as an io.Reader: plain yaegi stopped with "method not
// found: Read".
package main

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

type namedReader struct {
	io.Reader
	name string
}

type counted struct {
	n int
	namedReader
}

func main() {
	r := namedReader{strings.NewReader("hello"), "x"}
	b, err := io.ReadAll(r)
	fmt.Println(string(b), err, r.name)
	c := counted{1, namedReader{strings.NewReader("one\ntwo\n"), "y"}}
	sc := bufio.NewScanner(c)
	for sc.Scan() {
		fmt.Println(c.n, sc.Text())
	}
	p := &namedReader{strings.NewReader("ptr"), "z"}
	b, _ = io.ReadAll(p)
	fmt.Println(string(b), p.name)
}
