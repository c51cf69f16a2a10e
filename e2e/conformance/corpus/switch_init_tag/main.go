// A switch with an init statement and a tag that is an expression (found by
// the standard library's reflect.ExampleKind: yaegi skipped the tag, and
// every case compared with its zero value).
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
	s := "abc"
	switch n := 1; len(s) - n {
	case 2:
		fmt.Println("two")
	default:
		fmt.Println("not two")
	}
}
