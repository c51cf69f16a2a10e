// Command goref makes the cells' pinned writes and 8-byte loop from
// compiled Go through clapi, without the interpreter. Set beside clref (C)
// and the cells (clapi through yaegi), it tells which layer a gap comes
// from: the binding, or the interpreter.
//
//	bench/transfer/bin/goref [N]     N float64 values, default 5e8
//
// GOCL_CTX picks the device as in cells. It prints one JSON object with the
// fields of the same names as clref and the cells write.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/seed43a1e1ab/gocl/clapi"
)

// timing is one timed copy, as in clref's JSON.
type timing struct {
	Return  float64 `json:"return_s"`
	Done    float64 `json:"done_s"`
	Device  float64 `json:"device_s"`
	GBps    float64 `json:"gbps"`
	Binding float64 `json:"binding_return_s"`
}

func main() {
	if err := clapi.Try(run); err != nil {
		fmt.Fprintln(os.Stderr, "goref:", err)
		os.Exit(1)
	}
}

func run() {
	n := 500000000
	if len(os.Args) > 2 {
		fmt.Fprintln(os.Stderr, "usage: goref [N]")
		os.Exit(2)
	}
	if len(os.Args) == 2 {
		f, err := strconv.ParseFloat(os.Args[1], 64)
		if err != nil || f < 1 || f > 1e12 || f != float64(int64(f)) {
			fmt.Fprintf(os.Stderr, "goref: N must be a whole number of float64 values >= 1, got %q\n", os.Args[1])
			os.Exit(2)
		}
		n = int(f)
	}
	nbytes := 8 * n
	ctx := clapi.CreateSomeContext()
	q := clapi.NewQueue(ctx, clapi.Profiling)
	dev := ctx.Device()

	a := clapi.Random(n)
	buf := clapi.NewBufferSize(ctx, clapi.ReadWrite, nbytes)
	pinned := clapi.NewPinnedHost(q, nbytes)
	copy(pinned.Float64s(), a)
	var writes []timing
	for i := 0; i < 5; i++ {
		start := time.Now()
		ev := clapi.EnqueueCopy(q, buf, pinned, clapi.NonBlocking)
		ret := time.Since(start)
		ev.Wait()
		done := time.Since(start)
		d := ev.DeviceTime().Seconds()
		writes = append(writes, timing{ret.Seconds(), done.Seconds(), d, float64(nbytes) / d / 1e9, ev.HostBlocked().Seconds()})
	}
	back := make([]float64, n)
	clapi.EnqueueCopy(q, back, buf)
	if !clapi.Equal(back, a) {
		fmt.Fprintln(os.Stderr, "goref: the buffer does not hold what was written")
		os.Exit(1)
	}
	pinned.Close()
	buf.Release()

	const iters, warmup = 10000, 100
	small := clapi.NewBufferSize(ctx, clapi.ReadWrite, 8)
	x := []float64{0}
	var start time.Time
	for i := -warmup; i < iters; i++ {
		if i == 0 {
			start = time.Now()
		}
		x[0] = float64(i)
		clapi.EnqueueCopy(q, small, x)
	}
	per := time.Since(start).Seconds() / iters
	got := []float64{-1}
	clapi.EnqueueCopy(q, got, small)
	if got[0] != iters-1 {
		fmt.Fprintf(os.Stderr, "goref: the 8-byte buffer holds %v, not %d\n", got[0], iters-1)
		os.Exit(1)
	}

	out := map[string]any{
		"source": "goref", "platform": dev.Platform.Name, "device": dev.Name, "driver": dev.DriverVersion,
		"n": n, "bytes": nbytes, "pinned_write": writes,
		"small_write": map[string]any{"iters": iters, "bytes": 8, "per_copy_s": per},
	}
	js, _ := json.MarshalIndent(out, "", "  ")
	fmt.Println(string(js))
}
