// slices.SortFunc and slices.IndexFunc on the result of a compiled
// function (strings.Fields): the element type is inferred from the
// argument (issue 24: yaegi inferred one type per occurrence of a type
// parameter, and the call was refused).
package main

import (
	"fmt"
	"slices"
	"strings"
)

func main() {
	w := strings.Fields("pear fig apple banana")
	slices.SortFunc(w, func(a, b string) int { return len(a) - len(b) })
	fmt.Println(w)
	fmt.Println(slices.IndexFunc(w, func(s string) bool { return strings.HasPrefix(s, "b") }))
	slices.SortFunc(w, func(a, b string) int { return strings.Compare(a, b) })
	fmt.Println(w)
}
