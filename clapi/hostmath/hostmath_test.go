package hostmath

import (
	"math"
	"math/big"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
)

// withProcs runs fn with GOMAXPROCS set to p.
func withProcs(p int, fn func()) {
	old := runtime.GOMAXPROCS(p)
	defer runtime.GOMAXPROCS(old)
	fn()
}

// n spans several chunks plus a ragged tail.
const testN = 5*chunkLen + 1237

func TestRandomSeedDeterministicAcrossProcs(t *testing.T) {
	var ref []float64
	var ref32 []float32
	var refSum float64
	for _, p := range []int{1, 2, 3, 8} {
		withProcs(p, func() {
			got := RandomSeed(testN, 42)
			got32 := RandomFloat32(testN, 42)
			sum := Sum(got)
			if ref == nil {
				ref, ref32, refSum = got, got32, sum
				return
			}
			for i := range got {
				if math.Float64bits(got[i]) != math.Float64bits(ref[i]) {
					t.Fatalf("GOMAXPROCS=%d: RandomSeed element %d = %v, want %v as with GOMAXPROCS=1", p, i, got[i], ref[i])
				}
				if got32[i] != ref32[i] {
					t.Fatalf("GOMAXPROCS=%d: RandomFloat32 element %d = %v, want %v", p, i, got32[i], ref32[i])
				}
			}
			if math.Float64bits(sum) != math.Float64bits(refSum) {
				t.Fatalf("GOMAXPROCS=%d: Sum = %v, want %v bit for bit", p, sum, refSum)
			}
		})
	}
}

func TestRandomPrefixAndFill(t *testing.T) {
	// Element i depends only on the seed and i.
	long, short := RandomSeed(testN, 99), RandomSeed(chunkLen+3, 99)
	if !Equal(long[:len(short)], short) {
		t.Fatal("RandomSeed(n) is not a prefix of RandomSeed(m > n) for the same seed")
	}
	long32, short32 := RandomFloat32(testN, 99), RandomFloat32(chunkLen+3, 99)
	if !Equal(long32[:len(short32)], short32) {
		t.Fatal("RandomFloat32(n) is not a prefix of RandomFloat32(m > n)")
	}
	buf := make([]float64, testN)
	FillRandom(buf, 99)
	if !Equal(buf, long) {
		t.Fatal("FillRandom differs from RandomSeed")
	}
	buf32 := make([]float32, testN)
	FillRandomFloat32(buf32, 99)
	if !Equal(buf32, long32) {
		t.Fatal("FillRandomFloat32 differs from RandomFloat32")
	}
}

func TestRandomSeedsDiffer(t *testing.T) {
	a, b := RandomSeed(1000, 1), RandomSeed(1000, 2)
	if Equal(a, b) {
		t.Fatal("seeds 1 and 2 gave the same values")
	}
	c, d := Random(1000), RandomSeed(1000, 1)
	if Equal(c, d) {
		t.Fatal("Random gave the values of seed 1")
	}
}

func TestRandomDistribution(t *testing.T) {
	const n = 4 * chunkLen
	for name, xs := range map[string][]float64{
		"float64": RandomSeed(n, 7),
		"float32": toF64(RandomFloat32(n, 7)),
	} {
		var mean, sq float64
		for _, x := range xs {
			if x < 0 || x >= 1 {
				t.Fatalf("%s: value %v outside [0, 1)", name, x)
			}
			mean += x
			sq += x * x
		}
		mean /= n
		variance := sq/n - mean*mean
		// The standard error of the mean is sqrt(1/12/n) ≈ 0.00056; allow 8 of them.
		if math.Abs(mean-0.5) > 0.0045 {
			t.Errorf("%s: mean %v, want about 0.5", name, mean)
		}
		if math.Abs(variance-1.0/12) > 0.003 {
			t.Errorf("%s: variance %v, want about 1/12", name, variance)
		}
		// Neighbouring chunks must not be correlated.
		if r := correlation(xs[:chunkLen], xs[chunkLen:2*chunkLen]); math.Abs(r) > 0.03 {
			t.Errorf("%s: correlation between chunk 0 and chunk 1 is %v, want about 0", name, r)
		}
		// Lag-1 serial correlation inside the stream.
		if r := correlation(xs[:n-1], xs[1:]); math.Abs(r) > 0.02 {
			t.Errorf("%s: lag-1 correlation %v, want about 0", name, r)
		}
	}
}

func TestRandomNegativeLengthPanics(t *testing.T) {
	msg := catchPanic(func() { RandomSeed(-1, 0) })
	if !strings.Contains(msg, "negative length -1") {
		t.Fatalf("panic message %q does not name the bad length", msg)
	}
	if got := RandomSeed(0, 0); len(got) != 0 {
		t.Fatalf("RandomSeed(0) has %d elements", len(got))
	}
}

// exactSum sums xs exactly with big.Float (precision far beyond the
// exponent range used by the tests) and rounds once to float64.
func exactSum(xs []float64) float64 {
	acc := new(big.Float).SetPrec(4096)
	for _, x := range xs {
		acc.Add(acc, new(big.Float).SetPrec(4096).SetFloat64(x))
	}
	f, _ := acc.Float64()
	return f
}

func naiveSum(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s
}

// sumBound is the documented error bound of Sum, with a little slack:
// 5 roundings per element inside a block, one for the final value.
func sumBound(xs []float64, exact float64) float64 {
	const eps = 0x1p-53
	abs := 0.0
	for _, x := range xs {
		abs += math.Abs(x)
	}
	return 6*eps*abs + 2*eps*math.Abs(exact)
}

func TestSumAccuracy(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	// A large first term followed by terms below half its ulp: a naive loop
	// rounds every one of them away.
	swamped := []float64{1e8}
	for i := 0; i < 3*chunkLen; i++ {
		swamped = append(swamped, (0.05+0.4*r.Float64())*0x1p-26)
	}
	// Signed terms over 16 orders of magnitude.
	mixed := make([]float64, 3*chunkLen+31)
	for i := range mixed {
		mixed[i] = (r.Float64() - 0.3) * math.Pow(10, float64(r.IntN(16)-8))
	}
	for name, xs := range map[string][]float64{"swamped": swamped, "mixed": mixed} {
		exact := exactSum(xs)
		bound := sumBound(xs, exact)
		if name == "swamped" {
			if naiveErr := math.Abs(naiveSum(xs) - exact); naiveErr < 100*bound {
				t.Fatalf("%s: input is not tricky: naive error %g, bound %g", name, naiveErr, bound)
			}
		}
		withProcs(4, func() {
			for fn, got := range map[string]float64{"Sum": Sum(xs), "SumCompensated": SumCompensated(xs)} {
				if err := math.Abs(got - exact); err > bound {
					t.Errorf("%s: %s = %.17g, exact %.17g: error %g exceeds bound %g", name, fn, got, exact, err, bound)
				}
			}
		})
	}
}

func TestSumCompensatedCancellation(t *testing.T) {
	// Large values that cancel in pairs, shuffled among small ones: the
	// exact sum is the small part, which only full compensation keeps.
	r := rand.New(rand.NewPCG(3, 4))
	var xs []float64
	for i := 0; i < 3*chunkLen; i++ {
		big := (r.Float64() + 0.5) * math.Pow(10, float64(8+r.IntN(8)))
		xs = append(xs, big, -big, r.Float64()*1e-3)
	}
	r.Shuffle(len(xs), func(i, j int) { xs[i], xs[j] = xs[j], xs[i] })
	exact := exactSum(xs)
	naiveErr := math.Abs(naiveSum(xs)-exact) / math.Abs(exact)
	if naiveErr < 1e-8 {
		t.Fatalf("test input is not tricky: naive relative error only %g", naiveErr)
	}
	withProcs(4, func() {
		got := SumCompensated(xs)
		if relErr := math.Abs(got-exact) / math.Abs(exact); relErr > 1e-12 {
			t.Fatalf("SumCompensated = %.17g, exact %.17g: relative error %g (naive loop: %g)", got, exact, relErr, naiveErr)
		}
	})
}

func TestSumCancellation(t *testing.T) {
	cases := []struct {
		in   []float64
		want float64
	}{
		{nil, 0},
		{[]float64{1, 1e100, 1, -1e100}, 2},
		{[]float64{1e16, 1, -1e16}, 1},
		{[]float64{0.1, 0.2, 0.3, 0.4, 0.5}, exactSum([]float64{0.1, 0.2, 0.3, 0.4, 0.5})},
	}
	for _, c := range cases {
		if got := SumCompensated(c.in); got != c.want {
			t.Errorf("SumCompensated(%v) = %v, want %v", c.in, got, c.want)
		}
		// Short slices never fill a block, so Sum compensates them too.
		if got := Sum(c.in); got != c.want {
			t.Errorf("Sum(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}

func TestSumFloat32(t *testing.T) {
	xs := RandomFloat32(testN, 9)
	exact := exactSum(toF64(xs))
	got := SumFloat32(xs)
	if math.Abs(got-exact) > 1e-9*exact {
		t.Fatalf("SumFloat32 = %v, exact %v", got, exact)
	}
}

func TestFill(t *testing.T) {
	withProcs(4, func() {
		xs := make([]float32, testN)
		FillFloat32(xs, 2.5)
		for i, x := range xs {
			if x != 2.5 {
				t.Fatalf("element %d = %v after Fill(2.5)", i, x)
			}
		}
		if got := Sum(xs); got != 2.5*testN {
			t.Fatalf("Sum after Fill = %v, want %v", got, 2.5*testN)
		}
	})
}

func TestMaxAbsDiff(t *testing.T) {
	a := RandomSeed(testN, 11)
	b := append([]float64(nil), a...)
	if d := MaxAbsDiff(a, b); d != 0 {
		t.Fatalf("MaxAbsDiff of copies = %v", d)
	}
	b[testN-3] += 0.25 // in the ragged last chunk
	b[17] -= 0.125
	withProcs(4, func() {
		if d := MaxAbsDiff(a, b); math.Abs(d-0.25) > 1e-15 {
			t.Fatalf("MaxAbsDiff = %v, want 0.25", d)
		}
	})
	b[5] = math.NaN()
	if d := MaxAbsDiff(a, b); !math.IsNaN(d) {
		t.Fatalf("MaxAbsDiff with a NaN = %v, want NaN", d)
	}
	inf := []float32{float32(math.Inf(1)), 1}
	if d := MaxAbsDiffFloat32(inf, []float32{float32(math.Inf(1)), 3}); d != 2 {
		t.Fatalf("MaxAbsDiff with equal infinities = %v, want 2", d)
	}
}

func TestMaxAbsDiffLengthMismatch(t *testing.T) {
	msg := catchPanic(func() { MaxAbsDiff(make([]float64, 3), make([]float64, 4)) })
	for _, want := range []string{"MaxAbsDiff", "a has 3", "b has 4"} {
		if !strings.Contains(msg, want) {
			t.Fatalf("panic message %q lacks %q", msg, want)
		}
	}
}

func TestEqual(t *testing.T) {
	a := RandomSeed(testN, 5)
	b := append([]float64(nil), a...)
	withProcs(4, func() {
		if !Equal(a, b) {
			t.Fatal("Equal(copy) = false")
		}
		b[testN-1] = 2
		if Equal(a, b) {
			t.Fatal("Equal ignored a difference in the last element")
		}
	})
	if Equal(a, a[:10]) {
		t.Fatal("Equal ignored a length difference")
	}
	nan := []float64{math.NaN()}
	if Equal(nan, nan) {
		t.Fatal("Equal treated NaN as equal to NaN; it must follow ==")
	}
	if !EqualInt32([]int32{1, 2}, []int32{1, 2}) || EqualInt64([]int64{1}, []int64{2}) {
		t.Fatal("EqualInt32/EqualInt64 wrong")
	}
}

func correlation(x, y []float64) float64 {
	n := float64(len(x))
	var sx, sy, sxx, syy, sxy float64
	for i := range x {
		sx += x[i]
		sy += y[i]
		sxx += x[i] * x[i]
		syy += y[i] * y[i]
		sxy += x[i] * y[i]
	}
	cov := sxy/n - sx/n*sy/n
	return cov / math.Sqrt((sxx/n-sx/n*sx/n)*(syy/n-sy/n*sy/n))
}

func toF64(xs []float32) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = float64(x)
	}
	return out
}

func catchPanic(fn func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg, _ = r.(string)
			if msg == "" {
				msg = "non-string panic"
			}
		}
	}()
	fn()
	return "no panic"
}

func BenchmarkRandomSeed(b *testing.B) {
	const n = 1 << 22
	b.SetBytes(8 * n)
	for b.Loop() {
		RandomSeed(n, 1)
	}
}

func BenchmarkSum(b *testing.B) {
	xs := RandomSeed(1<<22, 1)
	b.SetBytes(int64(8 * len(xs)))
	for b.Loop() {
		Sum(xs)
	}
}

func BenchmarkSumCompensated(b *testing.B) {
	xs := RandomSeed(1<<22, 1)
	b.SetBytes(int64(8 * len(xs)))
	for b.Loop() {
		SumCompensated(xs)
	}
}
