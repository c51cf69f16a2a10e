// encoding/json's errors name the empty interface as Go does ("map[string]interface {}"):
// gocl wrote "map[string]any". Found by e2e/boundsfuzz/semfuzz.py.
package main

import (
	"encoding/json"
	"fmt"
)

type V struct{ N int }

func main() {
	var m map[string]any
	err := json.Unmarshal([]byte(`[1, 2]`), &m)
	fmt.Println(m, err)
	var s []interface{}
	err = json.Unmarshal([]byte(`{}`), &s)
	fmt.Println(err)
	var vs map[string]V
	err = json.Unmarshal([]byte(`[1]`), &vs)
	fmt.Println(err)
	fmt.Printf("%T %T %T\n", m, s, vs)
	var ma map[string]map[string]any
	err = json.Unmarshal([]byte(`{"a": 1}`), &ma)
	fmt.Println(err)
}
