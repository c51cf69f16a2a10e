// Package hostmath provides parallel host-side helpers over large slices,
// so notebook cells never loop over hundreds of millions of elements in the
// interpreter.
//
// Every helper splits its slice into fixed-size chunks (the chunk boundaries
// depend only on the length, never on the number of cores) and hands the
// chunks to GOMAXPROCS goroutines. [Sum] combines chunk results in chunk
// order, and element i of [RandomSeed] depends only on the seed and i, so
// results are the same bit for bit whatever the core count.
//
// The generic functions ([Fill], [Sum], [MaxAbsDiff], [Equal]) cannot be
// exported to the yaegi interpreter, which skips generic symbols; each has
// concrete twins (SumFloat64, SumFloat32, ...) for that purpose.
package hostmath

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// chunkLen is the number of elements one goroutine handles at a time. It is
// a constant so that chunk boundaries, and hence partial sums, never depend
// on the machine.
const chunkLen = 1 << 16

// Float is the constraint for the floating-point helpers.
type Float interface {
	~float32 | ~float64
}

// Number is the constraint for [Equal]: any integer or floating-point type.
type Number interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 |
		~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr |
		~float32 | ~float64
}

// numChunks returns how many chunks of chunkLen cover n elements.
func numChunks(n int) int {
	return (n + chunkLen - 1) / chunkLen
}

// forChunks calls fn(i, lo, hi) for every chunk i covering [lo, hi) of n
// elements, spread over up to GOMAXPROCS goroutines. It returns when all
// calls have returned. Chunks are claimed in increasing order, but may finish
// in any order: fn must write only to its own chunk's results.
func forChunks(n int, fn func(i, lo, hi int)) {
	chunks := numChunks(n)
	workers := runtime.GOMAXPROCS(0)
	if workers > chunks {
		workers = chunks
	}
	if workers <= 1 {
		for i := 0; i < chunks; i++ {
			lo := i * chunkLen
			fn(i, lo, min(lo+chunkLen, n))
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	wg.Add(workers)
	for w := 0; w < workers; w++ {
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= chunks {
					return
				}
				lo := i * chunkLen
				fn(i, lo, min(lo+chunkLen, n))
			}
		}()
	}
	wg.Wait()
}

// Fill sets every element of s to v, in parallel.
func Fill[T Float](s []T, v T) {
	forChunks(len(s), func(_, lo, hi int) {
		part := s[lo:hi]
		for i := range part {
			part[i] = v
		}
	})
}
