// encoding/xml writes an embedded struct's fields as the outer struct's
// own elements. yaegi builds a cell's struct with the embedded struct as a
// named field: xml.MarshalIndent wrote them in an <Address> element, and
// Unmarshal left them empty, with no error. gocl refuses the program
// before it runs, naming the type (issue 24; the standard library's
// encoding/xml ExampleEncoder, ExampleMarshalIndent, ExampleUnmarshal).
package main

import (
	"encoding/xml"
	"fmt"
)

type Address struct {
	City, State string
}

type Person struct {
	XMLName xml.Name `xml:"person"`
	Name    string   `xml:"name"`
	Address
}

func main() {
	out, err := xml.MarshalIndent(&Person{Name: "Ann", Address: Address{"Hanga Roa", "Easter Island"}}, "", "  ")
	fmt.Println(string(out), err)
}
