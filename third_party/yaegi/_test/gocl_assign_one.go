// gocl patch: one variable cannot take a call of two results.
package main

import "fmt"

func two() (int, int) { return 1, 2 }

func main() {
	x := two()
	fmt.Println(x)
}

// Error:
// 9:2: assignment mismatch: 1 variable but two() returns 2 values
