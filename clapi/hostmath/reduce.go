package hostmath

import (
	"fmt"
	"math"
	"sync/atomic"
)

// Sum returns the sum of s as a float64, computed in parallel: blocks of 32
// elements are summed pairwise in float64, and the block sums are added with
// compensated (Kahan-Babuska-Neumaier style) summation, chunk results merged
// in chunk order. Every element takes part in at most five rounded
// additions before its block sum is added exactly, so the error is at most
// about 5ε·Σ|s[i]| + ε·|sum| (ε = 2⁻⁵³), independent of the length; numpy's
// pairwise sum is bounded by ε·log₂(n)·Σ|s[i]|. The result is the same bit
// for bit whatever the core count. It runs at memory speed.
//
// When the terms cancel heavily (the sum is far smaller than Σ|s[i]|), use
// [SumCompensated], which is about 1.5-2x slower but compensates every
// addition.
func Sum[T Float](s []T) float64 {
	return reduceChunks(s, sumChunk[T])
}

// SumCompensated returns the sum of s as a float64, compensating every
// addition (Knuth's TwoSum per element, four interleaved accumulators per
// chunk). Its error is about one rounding of the exact sum plus a term of
// order n·ε² times Σ|s[i]|, so it stays accurate even when large terms
// cancel. The result is the same bit for bit whatever the core count.
func SumCompensated[T Float](s []T) float64 {
	return reduceChunks(s, sumChunkCompensated[T])
}

// reduceChunks applies sum to every chunk of s in parallel and merges the
// chunk results in order.
func reduceChunks[T Float](s []T, sum func([]T) kbn) float64 {
	chunks := numChunks(len(s))
	if chunks == 0 {
		return 0
	}
	parts := make([]kbn, chunks)
	forChunks(len(s), func(i, lo, hi int) {
		parts[i] = sum(s[lo:hi])
	})
	var total kbn
	for _, p := range parts {
		total.merge(p)
	}
	return total.value()
}

// kbn is a compensated running sum: the value is s + c, where c collects the
// rounding errors of the additions into s.
type kbn struct{ s, c float64 }

// add adds x to the running sum (Neumaier's variant of Kahan summation).
func (k *kbn) add(x float64) {
	t := k.s + x
	if math.Abs(k.s) >= math.Abs(x) {
		k.c += (k.s - t) + x
	} else {
		k.c += (x - t) + k.s
	}
	k.s = t
}

// merge adds another compensated sum to k.
func (k *kbn) merge(o kbn) {
	k.add(o.s)
	k.add(o.c)
}

func (k kbn) value() float64 { return k.s + k.c }

// sumChunk sums one chunk: each block of 32 elements pairwise (eight lanes
// of four, then a tree over the lanes), each block sum added into a
// compensated accumulator with Knuth's branch-free TwoSum.
func sumChunk[T Float](x []T) kbn {
	var s, c float64
	i := 0
	for ; i+31 < len(x); i += 32 {
		v := x[i : i+32 : i+32]
		l0 := (float64(v[0]) + float64(v[8])) + (float64(v[16]) + float64(v[24]))
		l1 := (float64(v[1]) + float64(v[9])) + (float64(v[17]) + float64(v[25]))
		l2 := (float64(v[2]) + float64(v[10])) + (float64(v[18]) + float64(v[26]))
		l3 := (float64(v[3]) + float64(v[11])) + (float64(v[19]) + float64(v[27]))
		l4 := (float64(v[4]) + float64(v[12])) + (float64(v[20]) + float64(v[28]))
		l5 := (float64(v[5]) + float64(v[13])) + (float64(v[21]) + float64(v[29]))
		l6 := (float64(v[6]) + float64(v[14])) + (float64(v[22]) + float64(v[30]))
		l7 := (float64(v[7]) + float64(v[15])) + (float64(v[23]) + float64(v[31]))
		b := ((l0 + l1) + (l2 + l3)) + ((l4 + l5) + (l6 + l7))
		t := s + b
		z := t - s
		c += (s - (t - z)) + (b - z)
		s = t
	}
	acc := kbn{s, c}
	for ; i < len(x); i++ {
		acc.add(float64(x[i]))
	}
	return acc
}

// sumChunkCompensated sums one chunk with four independent compensated
// accumulators, so that the additions of neighbouring elements do not wait on each other.
// Each step is Knuth's branch-free TwoSum, which recovers the exact rounding
// error of s+v whatever the magnitudes; the accumulators are plain locals so
// that they stay in registers.
func sumChunkCompensated[T Float](x []T) kbn {
	var s0, s1, s2, s3, c0, c1, c2, c3 float64
	i := 0
	for ; i+3 < len(x); i += 4 {
		v := x[i : i+4 : i+4]
		v0, v1, v2, v3 := float64(v[0]), float64(v[1]), float64(v[2]), float64(v[3])
		t0 := s0 + v0
		z0 := t0 - s0
		c0 += (s0 - (t0 - z0)) + (v0 - z0)
		s0 = t0
		t1 := s1 + v1
		z1 := t1 - s1
		c1 += (s1 - (t1 - z1)) + (v1 - z1)
		s1 = t1
		t2 := s2 + v2
		z2 := t2 - s2
		c2 += (s2 - (t2 - z2)) + (v2 - z2)
		s2 = t2
		t3 := s3 + v3
		z3 := t3 - s3
		c3 += (s3 - (t3 - z3)) + (v3 - z3)
		s3 = t3
	}
	acc := kbn{s0, c0}
	for ; i < len(x); i++ {
		acc.add(float64(x[i]))
	}
	acc.merge(kbn{s1, c1})
	acc.merge(kbn{s2, c2})
	acc.merge(kbn{s3, c3})
	return acc
}

// MaxAbsDiff returns the largest |a[i] - b[i]|, computed in float64, or 0
// for empty slices. Elements that compare equal (including equal
// infinities) contribute 0; a NaN in either slice makes the result NaN, so a
// broken result is never reported as a small difference. It panics if the
// slices differ in length.
func MaxAbsDiff[T Float](a, b []T) float64 {
	if len(a) != len(b) {
		panic(fmt.Sprintf("hostmath.MaxAbsDiff: lengths differ (a has %d elements, b has %d); compare slices of equal length", len(a), len(b)))
	}
	chunks := numChunks(len(a))
	if chunks == 0 {
		return 0
	}
	parts := make([]float64, chunks)
	forChunks(len(a), func(i, lo, hi int) {
		parts[i] = maxAbsDiffChunk(a[lo:hi], b[lo:hi])
	})
	m := 0.0
	for _, p := range parts {
		m = maxNaN(m, p)
	}
	return m
}

func maxAbsDiffChunk[T Float](a, b []T) float64 {
	b = b[:len(a)]
	m := 0.0
	for i := range a {
		if a[i] == b[i] {
			continue
		}
		m = maxNaN(m, math.Abs(float64(a[i])-float64(b[i])))
	}
	return m
}

// maxNaN returns the larger of m and d, or NaN if either is NaN.
func maxNaN(m, d float64) float64 {
	if d > m || d != d {
		return d
	}
	return m
}

// Equal reports whether a and b have the same length and equal elements,
// compared with == as slices.Equal does (so a NaN is never equal to
// anything, and 0 equals -0). It checks chunks in parallel and stops early
// once a difference is found.
func Equal[T Number](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	var differ atomic.Bool
	forChunks(len(a), func(_, lo, hi int) {
		if differ.Load() {
			return
		}
		x, y := a[lo:hi], b[lo:hi]
		for i := range x {
			if x[i] != y[i] {
				differ.Store(true)
				return
			}
		}
	})
	return !differ.Load()
}
