// Method expressions and method values.
package main

import "fmt"

type Dog struct{ name string }

func (d Dog) Sound() string { return d.name + " says woof" }

type Counter struct{ n int }

func (c *Counter) Add(k int) { c.n += k }

func main() {
	d := Dog{"Rex"}
	g := Dog.Sound
	fmt.Println(g(d))
	f := d.Sound
	d.name = "Max"
	fmt.Println(f(), d.Sound())
	c := &Counter{}
	add := (*Counter).Add
	add(c, 2)
	inc := c.Add
	inc(3)
	fmt.Println(c.n)
	fmt.Printf("%T\n", g)
}
