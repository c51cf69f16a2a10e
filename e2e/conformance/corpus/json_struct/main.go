// Types declared in the program seen by compiled code: encoding/json, with
// tags, unexported fields left out, and nested values.
package main

import (
	"encoding/json"
	"fmt"
)

type Point struct {
	X, Y   int
	Label  string `json:"label,omitempty"`
	hidden int
}

type Shape struct {
	Name   string  `json:"name"`
	Points []Point `json:"points"`
}

func main() {
	b, err := json.Marshal(Point{X: 1, Y: 2, hidden: 3})
	fmt.Println(string(b), err)
	s := Shape{Name: "tri", Points: []Point{{0, 0, "o", 0}, {1, 0, "", 0}}}
	b, _ = json.Marshal(s)
	fmt.Println(string(b))
	var back Shape
	fmt.Println(json.Unmarshal(b, &back), back.Name, len(back.Points), back.Points[0].Label)
}
