// Struct embedding: promoted fields and methods, shadowing, and an embedded
// interface.
package main

import (
	"fmt"
	"strings"
)

type Animal struct{ Name string }

func (a Animal) Describe() string { return "animal " + a.Name }
func (a Animal) Kind() string     { return "generic" }

type Dog struct {
	Animal
	Breed string
}

func (d Dog) Kind() string { return "dog" }

type Logger struct {
	strings.Builder
	lines int
}

func (l *Logger) Log(s string) { l.WriteString(s + "\n"); l.lines++ }

func main() {
	d := Dog{Animal{"Rex"}, "lab"}
	fmt.Println(d.Name, d.Describe(), d.Kind(), d.Animal.Kind())
	var l Logger
	l.Log("one")
	l.Log("two")
	fmt.Print(l.String())
	fmt.Println(l.lines, l.Len())
	fmt.Printf("%+v\n", d)
}
