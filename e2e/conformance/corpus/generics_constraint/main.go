// A generic function with a named constraint of type sets, used with
// predeclared and declared types.
package main

import "fmt"

type Number interface {
	~int | ~int64 | ~float64
}

type Celsius float64

func Sum[T Number](xs []T) T {
	var s T
	for _, x := range xs {
		s += x
	}
	return s
}

func main() {
	fmt.Println(Sum([]int{1, 2, 3}))
	fmt.Println(Sum([]float64{1.5, 2.25}))
	fmt.Println(Sum([]Celsius{10, 11.5}))
	fmt.Printf("%T\n", Sum([]Celsius{1}))
}
