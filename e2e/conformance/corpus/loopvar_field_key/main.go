// A loop variable named like a struct field that the loop body sets in a
// keyed literal, with a method called on the result (the standard library's
// container/heap priority queue printed nothing pasted whole).
package main

import "fmt"

type Item struct {
	value string
	index int
}

func (it *Item) show() { fmt.Println(it.index, it.value) }

func main() {
	var items []*Item
	var later []func()
	for index, value := range []string{"a", "b", "c"} {
		it := &Item{value: value, index: index}
		items = append(items, it)
		later = append(later, func() { fmt.Println("later", value) })
	}
	for _, it := range items {
		it.show()
	}
	for _, f := range later {
		f()
	}
}
