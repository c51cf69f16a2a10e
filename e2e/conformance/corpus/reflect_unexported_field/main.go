// reflect's FieldByName finds a struct's unexported field by its name.
// yaegi renames the unexported fields of the struct types it builds
// (firstName becomes XfirstName), so FieldByName found nothing and the
// program printed "<invalid reflect.Value>" with no error: gocl refuses the
// program before it runs, naming the field (issue 24; the standard
// library's ExampleValue_FieldByName).
package main

import (
	"fmt"
	"reflect"
)

type user struct {
	firstName string
	lastName  string
}

func main() {
	u := user{firstName: "John", lastName: "Doe"}
	s := reflect.ValueOf(u)
	fmt.Println("Name:", s.FieldByName("firstName"))
}
