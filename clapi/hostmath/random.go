package hostmath

import (
	"fmt"
	"math/rand/v2"
	"time"
)

// Random returns n pseudo-random float64 values, uniform in [0, 1), seeded
// from the clock. It is [RandomSeed] with a fresh seed; use RandomSeed when
// the values must be reproducible.
func Random(n int) []float64 {
	return RandomSeed(n, uint64(time.Now().UnixNano()))
}

// RandomSeed returns n pseudo-random float64 values, uniform in [0, 1).
// The same seed gives the same values whatever the number of cores: every
// fixed-size chunk of the result has its own PCG generator whose state is
// derived from the seed and the chunk's index. It panics if n is negative.
//
// These are not cryptographically secure values; they are meant for test
// data.
func RandomSeed(n int, seed uint64) []float64 {
	checkLen("RandomSeed", n)
	out := make([]float64, n)
	forChunks(n, func(i, lo, hi int) {
		g := chunkGenerator(seed, i)
		part := out[lo:hi]
		for j := range part {
			// The top 53 bits give every representable multiple of 2^-53.
			part[j] = float64(g.Uint64()>>11) * 0x1p-53
		}
	})
	return out
}

// RandomFloat32 returns n pseudo-random float32 values, uniform in [0, 1),
// reproducibly from seed like [RandomSeed]. It panics if n is negative.
func RandomFloat32(n int, seed uint64) []float32 {
	checkLen("RandomFloat32", n)
	out := make([]float32, n)
	forChunks(n, func(i, lo, hi int) {
		g := chunkGenerator(seed, i)
		part := out[lo:hi]
		j := 0
		// Two 24-bit values from each 64-bit draw.
		for ; j+1 < len(part); j += 2 {
			x := g.Uint64()
			part[j] = float32(x>>40) * 0x1p-24
			part[j+1] = float32((x>>8)&(1<<24-1)) * 0x1p-24
		}
		if j < len(part) {
			part[j] = float32(g.Uint64()>>40) * 0x1p-24
		}
	})
	return out
}

// chunkGenerator returns the generator for chunk i of a seeded sequence.
// The PCG state is scrambled with splitmix64 so that neighbouring chunks do
// not start from neighbouring states.
func chunkGenerator(seed uint64, i int) *rand.PCG {
	a := splitmix64(seed ^ splitmix64(uint64(i)+0x632be59bd9b4e019))
	b := splitmix64(a ^ 0xda942042e4dd58b5)
	return rand.NewPCG(a, b)
}

// splitmix64 is the finaliser of the SplitMix64 generator: a bijective
// 64-bit mix.
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

func checkLen(fn string, n int) {
	if n < 0 {
		panic(fmt.Sprintf("hostmath.%s: negative length %d; pass a count of elements >= 0", fn, n))
	}
}
