// Writing to a nil map panics with Go's message.
package main

import "fmt"

func main() {
	var counts map[string]int
	fmt.Println("len of nil map:", len(counts), counts["x"])
	counts["x"]++
	fmt.Println("never printed")
}
