package e2e

import (
	"strings"
	"testing"
)

// namedBasicProgram holds values of named types of a basic underlying type
// without methods in interfaces: type switches, %T and the other verbs,
// assertions that hold and fail, map keys, JSON, a channel.
const namedBasicProgram = `package main

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
`

// namedCompositeProgram does the same with named slice, array and map
// types, and compares a slice's value (Go panics, naming the type).
const namedCompositeProgram = `package main

import "fmt"

type Path []int
type Grid [2]int
type Index map[string]int

func kind(v any) string {
	switch x := v.(type) {
	case []int:
		return fmt.Sprint("[]int ", x)
	case [2]int:
		return "[2]int"
	case map[string]int:
		return "map"
	default:
		return fmt.Sprintf("%T %v", x, x)
	}
}

func main() {
	var p any = Path{1, 2}
	fmt.Println(kind(p), kind([]int{3}), kind(Grid{1, 2}), kind(Index{"a": 1}))
	fmt.Printf("%T %v %d\n", p, p, len(p.(Path)))
	_, ok := any([]int{1}).(Path)
	fmt.Println(ok, p.(Path)[1])
	defer func() { fmt.Println("recovered:", recover()) }()
	fmt.Println(p == p)
}
`

// TestNamedBasicValuesInInterfacesAsGo runs namedBasicProgram and
// namedCompositeProgram pasted whole and in notebook form (the
// declarations in one cell, main's body in the next) and checks both
// against go run.
func TestNamedBasicValuesInInterfacesAsGo(t *testing.T) {
	for _, prog := range []string{namedBasicProgram, namedCompositeProgram} {
		want := goRun(t, prog)
		k := startKernel(t)
		if got := cellOutput(t, k, prog); got != want {
			t.Errorf("pasted whole, the cell printed\n%s\ngo run printed\n%s", got, want)
		}
		k = startKernel(t)
		i := strings.Index(prog, "func main() {\n")
		decls := strings.TrimPrefix(prog[:i], "package main\n")
		body := strings.TrimSuffix(prog[i+len("func main() {\n"):], "}\n")
		if got := cellOutput(t, k, decls) + cellOutput(t, k, body); got != want {
			t.Errorf("in notebook form, the cells printed\n%s\ngo run printed\n%s", got, want)
		}
	}
}
