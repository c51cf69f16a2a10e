package conformance

import "sync"

// Each runs fn(i) for i in [0, n) on max(workers, 1) goroutines, and returns
// when every call has returned. The corpus tests and e2e/stdexamples run
// their programs through it.
func Each(n, workers int, fn func(i int)) {
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < max(workers, 1); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				fn(i)
			}
		}()
	}
	for i := 0; i < n; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
}
