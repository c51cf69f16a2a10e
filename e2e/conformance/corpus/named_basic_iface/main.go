// Values of named types of basic, slice, array and map underlying types without
// methods, held in interfaces.
package main

import (
	"encoding/json"
	"fmt"
	"sort"
)

type Celsius float64
type Weekday int

const (
	Sunday Weekday = iota
	Monday
)

type Name string

func reading() any { return Celsius(21.5) }

func describe(v any) string {
	switch x := v.(type) {
	case float64:
		return fmt.Sprint("float64 ", x)
	case int:
		return fmt.Sprint("int ", x)
	case string:
		return "string " + x
	default:
		return fmt.Sprintf("%T %v", x, x)
	}
}

func main() {
	vals := []any{Celsius(1), 2.0, Monday, 3, Name("n"), "s", reading()}
	for _, v := range vals {
		fmt.Println(describe(v))
	}
	m := map[any]int{}
	m[Celsius(1)]++
	m[Celsius(1)]++
	m[1.0]++
	fmt.Println(len(m), m[Celsius(1)], m[1.0])
	b, _ := json.Marshal(map[string]any{"t": Celsius(5), "d": Monday, "n": Name("x")})
	fmt.Println(string(b))
	c := reading().(Celsius)
	fmt.Println(c*2, reading() == Celsius(21.5), reading() == any(21.5))
	days := []Weekday{Monday, Sunday}
	sort.Slice(days, func(i, j int) bool { return days[i] < days[j] })
	fmt.Println(days, Monday)
	var w any = Sunday
	if d, ok := w.(Weekday); ok {
		fmt.Println("weekday", d+1)
	}
	fmt.Printf("%v %d %T %+v %#v\n", w, w, w, w, w)
	ch := make(chan any, 1)
	ch <- Name("sent")
	fmt.Println(describe(<-ch))
}
