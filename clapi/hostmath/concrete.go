package hostmath

// Concrete twins of the generic helpers. yaegi's symbol extraction skips
// generic functions, so notebook cells reach the helpers through these.

// FillFloat64 is [Fill] for []float64.
func FillFloat64(s []float64, v float64) { Fill(s, v) }

// FillFloat32 is [Fill] for []float32.
func FillFloat32(s []float32, v float32) { Fill(s, v) }

// SumFloat64 is [Sum] for []float64.
func SumFloat64(s []float64) float64 { return Sum(s) }

// SumFloat32 is [Sum] for []float32; the sum is accumulated in float64.
func SumFloat32(s []float32) float64 { return Sum(s) }

// MaxAbsDiffFloat64 is [MaxAbsDiff] for []float64.
func MaxAbsDiffFloat64(a, b []float64) float64 { return MaxAbsDiff(a, b) }

// MaxAbsDiffFloat32 is [MaxAbsDiff] for []float32.
func MaxAbsDiffFloat32(a, b []float32) float64 { return MaxAbsDiff(a, b) }

// EqualFloat64 is [Equal] for []float64.
func EqualFloat64(a, b []float64) bool { return Equal(a, b) }

// EqualFloat32 is [Equal] for []float32.
func EqualFloat32(a, b []float32) bool { return Equal(a, b) }

// EqualInt32 is [Equal] for []int32.
func EqualInt32(a, b []int32) bool { return Equal(a, b) }

// EqualInt64 is [Equal] for []int64.
func EqualInt64(a, b []int64) bool { return Equal(a, b) }

// SumCompensatedFloat64 is [SumCompensated] for []float64.
func SumCompensatedFloat64(s []float64) float64 { return SumCompensated(s) }

// SumCompensatedFloat32 is [SumCompensated] for []float32.
func SumCompensatedFloat32(s []float32) float64 { return SumCompensated(s) }
