// A type declared in the program satisfies sort.Interface and is sorted by
// the compiled sort package.
package main

import (
	"fmt"
	"sort"
)

type byLen []string

func (s byLen) Len() int           { return len(s) }
func (s byLen) Less(i, j int) bool { return len(s[i]) < len(s[j]) }
func (s byLen) Swap(i, j int)      { s[i], s[j] = s[j], s[i] }

type person struct {
	Name string
	Age  int
}

func main() {
	words := byLen{"banana", "kiwi", "apple", "fig"}
	sort.Sort(words)
	fmt.Println(words)
	sort.Sort(sort.Reverse(words))
	fmt.Println(words, sort.IsSorted(words))
	people := []person{{"Al", 30}, {"Bo", 25}, {"Cy", 30}, {"Di", 22}}
	sort.SliceStable(people, func(i, j int) bool { return people[i].Age > people[j].Age })
	fmt.Println(people)
	i := sort.SearchInts([]int{1, 3, 5, 7}, 5)
	fmt.Println(i)
}
