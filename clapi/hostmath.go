package clapi

import "github.com/seed43a1e1ab/gocl/clapi/hostmath"

// Host helpers: compiled loops over large slices, on all cores, so that no
// cell loops over millions of elements in the interpreter.

// Random returns n pseudo-random float64 values in [0, 1).
func Random(n int) []float64 { return hostmath.Random(n) }

// RandomSeed returns n pseudo-random float64 values in [0, 1) from seed;
// the same seed gives the same values.
func RandomSeed(n int, seed uint64) []float64 { return hostmath.RandomSeed(n, seed) }

// RandomFloat32 returns n pseudo-random float32 values in [0, 1) from seed.
func RandomFloat32(n int, seed uint64) []float32 { return hostmath.RandomFloat32(n, seed) }

// Fill sets every element of s to v.
func Fill(s []float64, v float64) { hostmath.FillFloat64(s, v) }

// FillFloat32 sets every element of s to v.
func FillFloat32(s []float32, v float32) { hostmath.FillFloat32(s, v) }

// Sum returns the sum of s.
func Sum(s []float64) float64 { return hostmath.SumFloat64(s) }

// SumFloat32 returns the sum of s, accumulated in float64.
func SumFloat32(s []float32) float64 { return hostmath.SumFloat32(s) }

// MaxAbsDiff returns the largest |a[i] - b[i]|.
func MaxAbsDiff(a, b []float64) float64 { return hostmath.MaxAbsDiffFloat64(a, b) }

// MaxAbsDiffFloat32 returns the largest |a[i] - b[i]|, in float64.
func MaxAbsDiffFloat32(a, b []float32) float64 { return hostmath.MaxAbsDiffFloat32(a, b) }

// Equal reports whether a and b have the same length and elements.
func Equal(a, b []float64) bool { return hostmath.EqualFloat64(a, b) }

// EqualFloat32 reports whether a and b have the same length and elements.
func EqualFloat32(a, b []float32) bool { return hostmath.EqualFloat32(a, b) }

// EqualInt32 reports whether a and b have the same length and elements.
func EqualInt32(a, b []int32) bool { return hostmath.EqualInt32(a, b) }
