// Switch forms: with init, without a condition, several values, fallthrough.
package main

import "fmt"

func classify(n int) string {
	switch r := n % 3; {
	case n < 0:
		return "negative"
	case r == 0:
		return "multiple of 3"
	default:
		return fmt.Sprint("remainder ", r)
	}
}

func main() {
	for _, n := range []int{-1, 6, 7} {
		fmt.Println(n, classify(n))
	}
	switch c := 'b'; c {
	case 'a', 'e', 'i':
		fmt.Println("vowel")
	case 'b':
		fmt.Println("b")
		fallthrough
	case 'c':
		fmt.Println("fell into c")
	default:
		fmt.Println("not reached")
	}
}
