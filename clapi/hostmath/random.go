package hostmath

import (
	"fmt"
	"time"
)

// Random returns n pseudo-random float64 values, uniform in [0, 1), seeded
// from the clock. It is [RandomSeed] with a fresh seed; use RandomSeed when
// the values must be reproducible.
func Random(n int) []float64 {
	return RandomSeed(n, uint64(time.Now().UnixNano()))
}

// RandomSeed returns n pseudo-random float64 values, uniform in [0, 1).
// The same seed gives the same values whatever the number of cores. It
// panics if n is negative.
//
// The values are the SplitMix64 sequence (the generator behind Java's
// SplittableRandom, which passes TestU01's BigCrush) from a starting state
// derived from the seed. SplitMix64's state advances by a constant, so
// element i depends only on the seed and i: chunks are generated in
// parallel with no per-chunk seeding and no dependency between elements,
// about twice as fast per core as math/rand/v2's PCG, whose 128-bit
// multiply chain serialises every step. The top 53 bits of each output
// give every multiple of 2⁻⁵³ in [0, 1) with equal probability.
//
// These are not cryptographically secure values; they are meant for test
// data.
func RandomSeed(n int, seed uint64) []float64 {
	checkLen("RandomSeed", n)
	out := make([]float64, n)
	FillRandom(out, seed)
	return out
}

// FillRandom overwrites dst with the values RandomSeed(len(dst), seed)
// would return, without allocating: use it to refill pinned host memory
// in place.
func FillRandom(dst []float64, seed uint64) {
	base := streamBase(seed, 0)
	forChunks(len(dst), func(_, lo, hi int) {
		part := dst[lo:hi]
		state := base + uint64(lo)*golden
		for j := range part {
			state += golden
			part[j] = float64(mix64(state)>>11) * 0x1p-53
		}
	})
}

// RandomFloat32 returns n pseudo-random float32 values, uniform in [0, 1),
// reproducibly from seed like [RandomSeed] (but not the same values). Each
// 64-bit output gives two 24-bit fractions. It panics if n is negative.
func RandomFloat32(n int, seed uint64) []float32 {
	checkLen("RandomFloat32", n)
	out := make([]float32, n)
	FillRandomFloat32(out, seed)
	return out
}

// FillRandomFloat32 overwrites dst with the values
// RandomFloat32(len(dst), seed) would return, without allocating.
func FillRandomFloat32(dst []float32, seed uint64) {
	base := streamBase(seed, 1)
	forChunks(len(dst), func(_, lo, hi int) {
		part := dst[lo:hi]
		// chunkLen is even, so every chunk starts on a pair boundary.
		state := base + uint64(lo/2)*golden
		j := 0
		for ; j+1 < len(part); j += 2 {
			state += golden
			x := mix64(state)
			part[j] = float32(x>>40) * 0x1p-24
			part[j+1] = float32((x>>8)&(1<<24-1)) * 0x1p-24
		}
		if j < len(part) {
			state += golden
			part[j] = float32(mix64(state)>>40) * 0x1p-24
		}
	})
}

// golden is SplitMix64's state increment, 2⁶⁴/φ rounded to odd.
const golden = 0x9e3779b97f4a7c15

// streamBase derives the starting state of a stream from the seed, so that
// nearby seeds, and the float64 and float32 streams of one seed, start far
// apart.
func streamBase(seed, stream uint64) uint64 {
	return mix64(mix64(seed^0x632be59bd9b4e019) + stream*0xda942042e4dd58b5)
}

// mix64 is SplitMix64's output function: a bijective 64-bit mix.
func mix64(x uint64) uint64 {
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

func checkLen(fn string, n int) {
	if n < 0 {
		panic(fmt.Sprintf("hostmath.%s: negative length %d; pass a count of elements >= 0", fn, n))
	}
}
