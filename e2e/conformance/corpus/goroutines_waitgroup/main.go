// Goroutines with sync.WaitGroup and a Mutex; results written by index, so
// the output does not depend on scheduling.
package main

import (
	"fmt"
	"sync"
)

func main() {
	squares := make([]int, 8)
	var wg sync.WaitGroup
	var mu sync.Mutex
	total := 0
	for i := range squares {
		wg.Add(1)
		go func() {
			defer wg.Done()
			squares[i] = i * i
			mu.Lock()
			total += i
			mu.Unlock()
		}()
	}
	wg.Wait()
	fmt.Println(squares, total)
	var once sync.Once
	for range 3 {
		once.Do(func() { fmt.Println("once") })
	}
}
