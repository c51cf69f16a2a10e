// gocl patch: a switch with an init statement evaluates its tag expression.
package main

import (
	"fmt"
	"reflect"
)

func kind(v any) string {
	switch v := reflect.ValueOf(v); v.Kind() {
	case reflect.String:
		return "string " + v.String()
	case reflect.Int:
		return fmt.Sprint("int ", v.Int())
	default:
		return "other " + v.Kind().String()
	}
}

func main() {
	fmt.Println(kind("hi"), kind(42), kind(1.5))
	s := "ab"
	switch n := 1; len(s) + n {
	case 3:
		fmt.Println("three")
	default:
		fmt.Println("not three")
	}
	x := 1
	switch x := x + 1; x {
	case 2:
		fmt.Println("two")
	default:
		fmt.Println("not two")
	}
	switch n := 2; {
	case n > 1:
		fmt.Println("tagless")
	}
}

// Output:
// string hi int 42 other float64
// three
// two
// tagless
