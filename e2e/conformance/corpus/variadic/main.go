// Variadic functions: no arguments, several, a slice passed with ...
package main

import "fmt"

func sum(label string, nums ...int) string {
	t := 0
	for _, n := range nums {
		t += n
	}
	return fmt.Sprintf("%s: %d (%d args)", label, t, len(nums))
}

func apply(fs ...func(int) int) int {
	v := 1
	for _, f := range fs {
		v = f(v)
	}
	return v
}

func main() {
	fmt.Println(sum("none"))
	fmt.Println(sum("three", 1, 2, 3))
	xs := []int{4, 5}
	fmt.Println(sum("slice", xs...))
	fmt.Println(apply(func(x int) int { return x + 1 }, func(x int) int { return x * 10 }))
	args := []any{"a", 1, true}
	fmt.Println(args...)
	fmt.Println(append([]int{1}, xs...))
}
