// func main runs once, after the cell's other declarations: a later cell must
// not run it again (the harness adds a later cell to every program).
package main

import "fmt"

var calls int

var ready = setup()

func setup() bool {
	fmt.Println("package-level initialization runs first")
	return true
}

func init() {
	fmt.Println("init runs before main, ready =", ready)
}

func main() {
	calls++
	fmt.Println("main ran", calls, "time(s)")
}
