// A function's parameter named like a package variable declared after
// main: the function prints its argument (issue 24 saw an empty line in
// notebook form).
package main

import "fmt"

func show(s string) {
	fmt.Println(s)
}

func twice(s string) string { return s + s }

func main() {
	show(s)
	fmt.Println(twice(s))
}

var s = "hello"
