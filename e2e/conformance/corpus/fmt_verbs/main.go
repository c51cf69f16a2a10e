// fmt verbs on types declared in the program: %T names main.T, %+v shows
// field names, %d on a type with a String method prints the number.
package main

import "fmt"

type T struct {
	A      int
	hidden string
}

type Level int

func (l Level) String() string { return [...]string{"low", "mid", "high"}[l] }

type Pair struct {
	K string
	V Level
}

func main() {
	t := T{1, "h"}
	fmt.Printf("%T\n", t)
	fmt.Printf("%v\n", t)
	fmt.Printf("%+v\n", t)
	fmt.Printf("%#v\n", Level(2))
	l := Level(1)
	fmt.Printf("%v %s %d %q\n", l, l, l, l)
	fmt.Println(Pair{"k", 2}, []Level{0, 2})
	fmt.Printf("%T %T %T\n", l, &t, []Pair{})
}
