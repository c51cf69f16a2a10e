// Deferred calls run when the function (in a notebook: the cell) ends by a
// panic too, before the panic ends the program.
package main

import "fmt"

type resource struct{ name string }

func (r *resource) Close() { fmt.Println("closed", r.name) }

func main() {
	r := &resource{"db"}
	defer r.Close()
	defer fmt.Println("deferred print")
	fmt.Println("working")
	var p *resource
	fmt.Println(p.name)
	fmt.Println("never printed")
}
