// Structs and arrays are comparable and can be map keys.
package main

import "fmt"

type Point struct{ X, Y int }

type key struct {
	p    Point
	name string
}

func main() {
	p, q := Point{1, 2}, Point{1, 2}
	fmt.Println(p == q, p != Point{2, 1})
	seen := map[Point]bool{p: true}
	fmt.Println(seen[q], seen[Point{}])
	k := map[key]int{{Point{0, 0}, "origin"}: 1}
	k[key{Point{0, 0}, "origin"}]++
	fmt.Println(k)
	grid := map[[2]int]string{{0, 1}: "a"}
	fmt.Println(grid[[2]int{0, 1}])
	anon := struct {
		A int
		B string
	}{1, "b"}
	fmt.Printf("%v %+v\n", anon, anon)
}
