// Assertions to a named int with methods, of values that are one, another type
// and a plain int, held in interfaces.
package main

import (
	"fmt"
	"time"
)

type Level int

func (l Level) String() string { return [...]string{"low", "high"}[l] }

type Rank int

func (r Rank) String() string { return "rank" }

func main() {
	var v any = Level(1)
	var w any = 5
	var r any = Rank(1)
	var d any = time.Second
	l, isL := v.(Level)
	_, isL2 := w.(Level)
	_, isL3 := r.(Level)
	_, isL4 := d.(Level)
	fmt.Println(l, isL, isL2, isL3, isL4, v.(Level)+0)
	func() {
		defer func() { fmt.Println(recover()) }()
		_ = w.(Level)
	}()
	func() {
		defer func() { fmt.Println(recover()) }()
		var n any
		_ = n.(Level)
	}()
}
