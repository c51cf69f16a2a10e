// goto, and goroutines that each capture their own loop variable, joined
// through a channel of results sorted before printing.
package main

import (
	"fmt"
	"sort"
)

func main() {
	i := 0
again:
	if i < 3 {
		fmt.Print("goto ", i, "; ")
		i++
		goto again
	}
	fmt.Println()
	results := make(chan string, 4)
	for _, name := range []string{"d", "b", "a", "c"} {
		go func() { results <- "worker " + name }()
	}
	var got []string
	for range 4 {
		got = append(got, <-results)
	}
	sort.Strings(got)
	fmt.Println(got)
}
