// A function whose own local is named like a variable main declares, with
// a defer: the function uses only its local (issue 24 saw a false
// refusal in notebook form).
package main

import "fmt"

func work(n int) int {
	total := 0
	defer func() { fmt.Println("work total", total) }()
	for i := 0; i < n; i++ {
		total += i
	}
	return total
}

func main() {
	total := work(4)
	defer fmt.Println("main done", total)
	fmt.Println(total)
}
