// encoding/json decodes into interface{} and map[string]interface{} with
// its own types (float64, string, []interface{}, map[string]interface{}),
// also in a program that declares a type (issue 24: gocl's crossing layer
// refused the go/types spelling "interface{}", and a program that ignored
// the error printed nothing).
package main

import (
	"encoding/json"
	"fmt"
)

type Point struct{ X, Y int }

func main() {
	var m map[string]interface{}
	err := json.Unmarshal([]byte(`{"a":1,"b":[1,"x"],"c":{"d":true}}`), &m)
	fmt.Println(m, err)
	var v interface{}
	err = json.Unmarshal([]byte(`[1,2.5,null]`), &v)
	fmt.Println(v, err)
	var a any
	err = json.Unmarshal([]byte(`"s"`), &a)
	fmt.Printf("%v %T %v\n", a, a, err)
	var p Point
	err = json.Unmarshal([]byte(`{"X":3,"Y":4}`), &p)
	fmt.Println(p, err)
	var ps map[string]any
	fmt.Println(json.Unmarshal([]byte(`{"p":{"X":1}}`), &ps), ps)
}
