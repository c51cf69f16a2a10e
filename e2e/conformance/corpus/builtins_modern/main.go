// The builtins clear, min and max.
package main

import "fmt"

func main() {
	m := map[string]int{"a": 1, "b": 2}
	clear(m)
	fmt.Println(len(m), m)
	xs := []int{1, 2, 3}
	clear(xs)
	fmt.Println(xs, len(xs))
	fmt.Println(min(3, 1, 2), max(3, 1, 2), min(2.5, 1), max("b", "a", "c"))
	x, y := 7, 4
	fmt.Println(min(x, y), max(x, y, 10))
}
