// Type switches and assertions on a program's own struct types, whatever
// holds the value: a []any literal, an any variable, an error variable, a
// parameter of an interface type the program declares.
package main

import (
	"errors"
	"fmt"
)

type NotFound struct{ Key string }

func (e *NotFound) Error() string { return "not found: " + e.Key }

type Point struct{ X, Y int }

type Empty1 struct{}
type Empty2 struct{}

func (Empty1) Hello() string { return "one" }
func (Empty2) Hello() string { return "two" }

type Greeter interface{ Hello() string }

func kind(v any) string {
	switch x := v.(type) {
	case *NotFound:
		return "NotFound " + x.Key
	case Point:
		return fmt.Sprint("Point ", x.X+x.Y)
	case error:
		return "error " + x.Error()
	case int:
		return "int"
	}
	return "other"
}

func plain(v any) string {
	switch v.(type) {
	case Point:
		return "Point"
	case *Point:
		return "*Point"
	case string:
		return "string"
	}
	return "other"
}

func greet(g Greeter) string {
	switch g.(type) {
	case Empty1:
		return "Empty1"
	}
	return "not Empty1: " + g.Hello()
}

func main() {
	for _, v := range []any{&NotFound{"k"}, Point{1, 2}, errors.New("e"), 4, "s", &Point{}} {
		fmt.Println(kind(v), plain(v))
	}
	var a any = Point{3, 4}
	var err error = &NotFound{"db"}
	fmt.Println(kind(a), kind(err), plain(a))
	if nf, ok := err.(*NotFound); ok {
		fmt.Println("as *NotFound:", nf.Key)
	}
	if p, ok := a.(Point); ok {
		fmt.Println("as Point:", p.Y)
	}
	_, isPtr := a.(*Point)
	fmt.Println("a is *Point:", isPtr)
	fmt.Println(greet(Empty1{}), greet(Empty2{}))
	var g Greeter
	_, ok := g.(Empty1)
	fmt.Println("nil greeter is Empty1:", ok)
}
