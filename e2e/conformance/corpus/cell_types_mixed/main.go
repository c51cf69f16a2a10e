// Values of a program's own types handed to fmt, sort and errors: a String
// method, two struct types of the same shape behind an interface, an error
// type found by errors.As through a wrap, a type declared in main.
package main

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

type Person struct {
	Name string
	Age  int
}

func (p Person) String() string { return fmt.Sprintf("%s (%d)", p.Name, p.Age) }

type ByAge []Person

func (a ByAge) Len() int           { return len(a) }
func (a ByAge) Swap(i, j int)      { a[i], a[j] = a[j], a[i] }
func (a ByAge) Less(i, j int) bool { return a[i].Age < a[j].Age }

type Animal interface{ Sound() string }
type Dog struct{ name string }
type Cat struct{ name string }

func (d *Dog) Sound() string { return d.name + ": woof" }
func (c Cat) Sound() string  { return c.name + ": meow" }

type NotFoundError struct{ Name string }

func (e *NotFoundError) Error() string { return e.Name + " not found" }

func find(name string) error {
	if name == "x" {
		return &NotFoundError{name}
	}
	return nil
}

func main() {
	people := []Person{{"Alice", 30}, {"Bob", 25}, {"Carol", 35}}
	sort.Sort(ByAge(people))
	fmt.Println(people)
	fmt.Printf("%v|%+v|%s\n", people[0], people[0], people[1])
	animals := []Animal{&Dog{"rex"}, Cat{"tom"}}
	for _, a := range animals {
		fmt.Printf("%T %s\n", a, a.Sound())
	}
	err := find("x")
	var nf *NotFoundError
	if errors.As(err, &nf) {
		fmt.Println("as:", nf.Name, err)
	}
	wrapped := fmt.Errorf("lookup: %w", err)
	fmt.Println(wrapped, errors.Is(wrapped, err))
	m := map[string]Person{"a": {"Z", 1}}
	fmt.Println(m, len(m))
	var sb strings.Builder
	fmt.Fprintf(&sb, "%d-%v", 3, people[2])
	fmt.Println(sb.String())
	type point struct{ x, y int }
	pts := map[point]string{{1, 2}: "a"}
	fmt.Println(pts)
	fmt.Printf("%v %+v %#v\n", point{1, 2}, point{1, 2}, point{1, 2})
}
