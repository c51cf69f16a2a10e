// Command hostmath times gocl's parallel host helpers against numpy on the
// same machine and prints a markdown table for bench/RESULTS.md:
//
//	go run ./bench/hostmath            # n = 5e8 float64 (4 GB), 3 runs
//	go run ./bench/hostmath -n 1e7 -runs 5
//
// It times hostmath.Random(n) against numpy's np.random.random(n) (and,
// for fairness, the newer np.random.default_rng().random(n)), and
// hostmath.Sum / SumCompensated against a.sum(), taking the median of the
// runs. numpy runs through /usr/bin/python3 with OPENBLAS_CORETYPE and
// OPENBLAS_L2_SIZE unset for that command only (they slow a current numpy
// on some processors; neither operation here calls BLAS, but the table
// should not depend on it). The target is at most 0.5x numpy's time.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/seed43a1e1ab/gocl/clapi/hostmath"
)

// numpyScript times numpy; it prints one JSON object.
const numpyScript = `
import json, sys, time
import numpy as np
n, runs = int(sys.argv[1]), int(sys.argv[2])
out = {"version": np.__version__, "random": [], "rng": [], "sum": [], "check": 0.0}
rng = np.random.default_rng()
for _ in range(runs):
    t0 = time.perf_counter(); a = np.random.random(n); t1 = time.perf_counter()
    s = a.sum(); t2 = time.perf_counter()
    out["random"].append(t1 - t0); out["sum"].append(t2 - t1); out["check"] = float(s) / n
    del a
    t0 = time.perf_counter(); b = rng.random(n); t1 = time.perf_counter()
    out["rng"].append(t1 - t0)
    del b
print(json.dumps(out))
`

type numpyTimes struct {
	Version string    `json:"version"`
	Random  []float64 `json:"random"`
	RNG     []float64 `json:"rng"`
	Sum     []float64 `json:"sum"`
	Check   float64   `json:"check"`
}

func main() {
	nFlag := flag.Float64("n", 5e8, "number of float64 values (5e8 = 4 GB; each side holds one array at a time)")
	runs := flag.Int("runs", 3, "runs per measurement; the median is reported")
	python := flag.String("python", "/usr/bin/python3", "Python with numpy")
	flag.Parse()
	n := int(*nFlag)
	if n <= 0 || *runs <= 0 {
		fmt.Fprintln(os.Stderr, "hostmath bench: -n and -runs must be positive")
		os.Exit(2)
	}

	var rnd, sum, comp []time.Duration
	var mean float64
	for r := 0; r < *runs; r++ {
		t0 := time.Now()
		a := hostmath.Random(n)
		t1 := time.Now()
		s := hostmath.Sum(a)
		t2 := time.Now()
		hostmath.SumCompensated(a)
		t3 := time.Now()
		rnd, sum, comp = append(rnd, t1.Sub(t0)), append(sum, t2.Sub(t1)), append(comp, t3.Sub(t2))
		mean = s / float64(n)
		a = nil
		runtime.GC()
		debug.FreeOSMemory() // give the 4 GB back before numpy needs its own
	}
	if math.Abs(mean-0.5) > 0.01 {
		fmt.Fprintf(os.Stderr, "hostmath bench: mean of Random(%d) is %v, not about 0.5: results are wrong\n", n, mean)
		os.Exit(1)
	}

	np, err := runNumpy(*python, n, *runs)
	if err != nil {
		fmt.Fprintln(os.Stderr, "hostmath bench: numpy side failed:", err)
		os.Exit(1)
	}

	fmt.Printf("### Host helpers vs numpy, n = %d float64 (%s)\n\n", n, bytesGB(int64(n)*8))
	fmt.Printf("Machine: %s, %d cores (GOMAXPROCS %d), %s, %s, numpy %s; median of %d runs; ratio = gocl time / numpy time (target <= 0.5).\n\n",
		cpuModel(), runtime.NumCPU(), runtime.GOMAXPROCS(0), runtime.Version(), runtime.GOARCH, np.Version, *runs)
	fmt.Println("| operation | gocl hostmath | numpy | ratio |")
	fmt.Println("|---|---|---|---|")
	row := func(name string, ours []time.Duration, theirs []float64) {
		o, t := median(ours).Seconds(), medianF(theirs)
		fmt.Printf("| %s | %.3f s | %.3f s | %.2fx |\n", name, o, t, o/t)
	}
	row("`Random(n)` vs `np.random.random(n)`", rnd, np.Random)
	row("`Random(n)` vs `default_rng().random(n)`", rnd, np.RNG)
	row("`Sum(a)` vs `a.sum()`", sum, np.Sum)
	row("`SumCompensated(a)` vs `a.sum()`", comp, np.Sum)
	tot := make([]time.Duration, len(rnd))
	for i := range rnd {
		tot[i] = rnd[i] + sum[i]
	}
	npTot := make([]float64, len(np.Random))
	for i := range np.Random {
		npTot[i] = np.Random[i] + np.Sum[i]
	}
	row("Random + Sum vs random + sum", tot, npTot)
}

// runNumpy runs numpyScript with the OpenBLAS tuning variables unset.
func runNumpy(python string, n, runs int) (numpyTimes, error) {
	var res numpyTimes
	cmd := exec.Command(python, "-c", numpyScript, fmt.Sprint(n), fmt.Sprint(runs))
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "OPENBLAS_CORETYPE=") || strings.HasPrefix(kv, "OPENBLAS_L2_SIZE=") {
			continue
		}
		cmd.Env = append(cmd.Env, kv)
	}
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return res, fmt.Errorf("%s: %w (is python3-numpy installed?)", python, err)
	}
	if err := json.Unmarshal(out, &res); err != nil {
		return res, fmt.Errorf("reading numpy's timings %q: %w", out, err)
	}
	if math.Abs(res.Check-0.5) > 0.01 {
		return res, fmt.Errorf("numpy's mean is %v, not about 0.5", res.Check)
	}
	return res, nil
}

// cpuModel names the processor from /proc/cpuinfo.
func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return "unknown CPU"
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown CPU"
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func medianF(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func bytesGB(b int64) string { return fmt.Sprintf("%.2f GB", float64(b)/1e9) }
