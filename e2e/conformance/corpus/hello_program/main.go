// A whole program as a tutorial shows it: package clause, imports, a helper,
// func main.
package main

import (
	"fmt"
	"strings"
)

func greet(name string) string {
	return "Hello, " + strings.ToUpper(name[:1]) + name[1:] + "!"
}

func main() {
	fmt.Println(greet("gopher"))
	fmt.Printf("%d letters\n", len("gopher"))
}
