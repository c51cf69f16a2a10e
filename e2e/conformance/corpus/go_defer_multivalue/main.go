// A go or defer statement whose sole argument is a call of two results:
// the function receives both (gocl's guards bound the call to one
// variable, and the interpreter kept the first result).
package main

import (
	"fmt"
	"sync"
)

func two() (int, int) { return 1, 2 }

func pair(a, b int) { fmt.Println("pair", a, b) }

var reports = make(chan string, 1)

func report(a, b int) { reports <- fmt.Sprint("report ", a, " ", b) }

func main() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		fmt.Println(two())
	}()
	wg.Wait()
	wg.Add(1)
	go func() { defer wg.Done(); pair(two()) }()
	wg.Wait()
	go report(two())
	fmt.Println(<-reports)
	func() {
		defer fmt.Println(two())
		defer pair(two())
		fmt.Println("body")
	}()
}
