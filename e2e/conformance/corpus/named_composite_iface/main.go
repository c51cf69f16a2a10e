// Named slice, array and map types without methods held in interfaces, and a
// comparison of a slice's value (Go panics, naming the type).
package main

import "fmt"

type Path []int
type Grid [2]int
type Index map[string]int

func kind(v any) string {
	switch x := v.(type) {
	case []int:
		return fmt.Sprint("[]int ", x)
	case [2]int:
		return "[2]int"
	case map[string]int:
		return "map"
	default:
		return fmt.Sprintf("%T %v", x, x)
	}
}

func main() {
	var p any = Path{1, 2}
	fmt.Println(kind(p), kind([]int{3}), kind(Grid{1, 2}), kind(Index{"a": 1}))
	fmt.Printf("%T %v %d\n", p, p, len(p.(Path)))
	_, ok := any([]int{1}).(Path)
	fmt.Println(ok, p.(Path)[1])
	defer func() { fmt.Println("recovered:", recover()) }()
	fmt.Println(p == p)
}
