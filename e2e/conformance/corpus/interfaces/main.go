// Interfaces: implicit satisfaction, assertion with ok, embedding, and a nil
// pointer in an interface that is not nil.
package main

import (
	"fmt"
	"math"
)

type Shape interface {
	Area() float64
}

type Named interface {
	Shape
	Name() string
}

type Circle struct{ R float64 }

func (c Circle) Area() float64 { return math.Pi * c.R * c.R }
func (c Circle) Name() string  { return "circle" }

type Square struct{ S float64 }

func (s *Square) Area() float64 {
	if s == nil {
		return 0
	}
	return s.S * s.S
}

func main() {
	shapes := []Shape{Circle{1}, &Square{2}}
	for _, s := range shapes {
		if n, ok := s.(Named); ok {
			fmt.Printf("%s %.3f\n", n.Name(), n.Area())
		} else {
			fmt.Printf("%T %.1f\n", s, s.Area())
		}
	}
	var sq *Square
	var s Shape = sq
	fmt.Println(s != nil, s.Area())
	var empty Shape
	fmt.Println(empty == nil)
}
