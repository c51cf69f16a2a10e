// A String method of a type declared in the program is used by compiled
// code: fmt, strings, errors and text/template.
package main

import (
	"fmt"
	"os"
	"strings"
	"text/template"
)

type Color int

func (c Color) String() string { return [...]string{"red", "green", "blue"}[c] }

type Item struct {
	Name  string
	Color Color
}

func main() {
	cs := []Color{0, 2, 1}
	fmt.Println(cs, fmt.Sprint(cs[1]), fmt.Sprintf("%v|%s", cs[0], cs[2]))
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = c.String()
	}
	fmt.Println(strings.Join(parts, "+"))
	t := template.Must(template.New("t").Parse("{{.Name}} is {{.Color}}\n"))
	if err := t.Execute(os.Stdout, Item{"sky", 2}); err != nil {
		fmt.Println(err)
	}
	var s fmt.Stringer = Color(1)
	fmt.Println(s)
}
