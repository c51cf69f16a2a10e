package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"
	"time"
)

// Timing is one timed copy: seconds from just before the call until it
// returned and until its wait ended, the device's start-to-end time, and
// the rate over the device time.
type Timing struct {
	Return  float64  `json:"return_s"`
	Done    float64  `json:"done_s"`
	Device  float64  `json:"device_s"`
	GBps    float64  `json:"gbps"`
	Binding *float64 `json:"binding_return_s,omitempty"` // cells only: the C call alone, as the binding timed it
}

// Small is a loop of small blocking copies.
type Small struct {
	Iters   int     `json:"iters"`
	Bytes   int     `json:"bytes"`
	PerCopy float64 `json:"per_copy_s"`
	PerIter float64 `json:"per_iter_s"` // small_loop_empty only
}

// Result is what clref and cells.ipynb write. Fields one side lacks stay
// zero or nil.
type Result struct {
	Source        string   `json:"source"`
	Platform      string   `json:"platform"`
	Device        string   `json:"device"`
	Driver        string   `json:"driver"`
	DeviceVersion string   `json:"device_version"`
	Selector      string   `json:"selector"`
	N             int64    `json:"n"`
	Bytes         int64    `json:"bytes"`
	Create        *float64 `json:"create_copy_host_ptr_s"`
	PageableWrite []Timing `json:"pageable_write"`
	PinnedWrite   []Timing `json:"pinned_write"`
	PinnedRead    []Timing `json:"pinned_read"`
	PageableRead  []Timing `json:"pageable_read"`
	SmallWrite    *Small   `json:"small_write"`
	SmallEvent    *Small   `json:"small_write_event"`     // clref only
	SmallCB       *Small   `json:"small_write_callback"`  // clref only
	PinnedCB      []Timing `json:"pinned_write_callback"` // clref only
	SmallEmpty    *Small   `json:"small_loop_empty"`      // cells only
	TopLevel      *Timing  `json:"pinned_write_toplevel"` // cells only
}

// Load reads one result file and checks that it holds what the report
// needs, naming the file and the field that is missing.
func Load(path, wantSource string) (*Result, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r Result
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("%s: not a benchmark result: %v", path, err)
	}
	if err := r.check(wantSource); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return &r, nil
}

func (r *Result) check(wantSource string) error {
	if r.Source != wantSource {
		return fmt.Errorf("source is %q, want %q (are the arguments in the order ref.json cells.json [goref.json]?)", r.Source, wantSource)
	}
	if wantSource == "goref" {
		// goref makes only the pinned writes and the 8-byte loop.
		if r.Device == "" || r.N <= 0 || len(r.PinnedWrite) == 0 || r.SmallWrite == nil || !(r.SmallWrite.PerCopy > 0) {
			return fmt.Errorf("missing or invalid: device, n, pinned_write or small_write")
		}
		return nil
	}
	var missing []string
	if r.Device == "" {
		missing = append(missing, "device")
	}
	if r.N <= 0 || r.Bytes != 8*r.N {
		missing = append(missing, "n and bytes (bytes = 8n)")
	}
	if r.Create == nil {
		missing = append(missing, "create_copy_host_ptr_s")
	}
	for _, f := range []struct {
		name string
		ts   []Timing
	}{{"pageable_write", r.PageableWrite}, {"pinned_write", r.PinnedWrite}, {"pinned_read", r.PinnedRead}, {"pageable_read", r.PageableRead}} {
		if len(f.ts) == 0 {
			missing = append(missing, f.name)
			continue
		}
		for i, t := range f.ts {
			if !(t.Return > 0 && t.Done >= t.Return && t.Device > 0) {
				return fmt.Errorf("%s[%d] is not a valid timing (return %g s, done %g s, device %g s): want 0 < return <= done, device > 0", f.name, i, t.Return, t.Done, t.Device)
			}
		}
	}
	if r.SmallWrite == nil || r.SmallWrite.Iters <= 0 || !(r.SmallWrite.PerCopy > 0) {
		missing = append(missing, "small_write (iters, per_copy_s)")
	}
	if len(missing) > 0 {
		return fmt.Errorf("missing or invalid: %s", strings.Join(missing, ", "))
	}
	return nil
}

// Machine describes the host the report runs on.
type Machine struct {
	CPU     string
	Cores   int
	Kernel  string
	LoadAvg string // the 1-minute load average when the report ran
}

// ThisMachine reads the CPU model, kernel release and load average from
// /proc; what it cannot read is left "unknown".
func ThisMachine() Machine {
	m := Machine{CPU: "unknown", Kernel: "unknown", LoadAvg: "unknown"}
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			k, v, ok := strings.Cut(line, ":")
			if !ok {
				continue
			}
			switch strings.TrimSpace(k) {
			case "model name":
				if m.CPU == "unknown" {
					m.CPU = strings.TrimSpace(v)
				}
			case "processor":
				m.Cores++
			}
		}
	}
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		m.Kernel = strings.TrimSpace(string(b))
	}
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		if f := strings.Fields(string(b)); len(f) > 0 {
			m.LoadAvg = f[0]
		}
	}
	return m
}

// Targets are issue 4's limits.
type Targets struct {
	PinnedRateRatio float64       // cells' pinned write rate / the reference's, at least
	PinnedReturn    time.Duration // a cell's non-blocking pinned write returns within, at most
	SmallRatio      float64       // a cell's 8-byte blocking copy / the reference's, at most
}

// Issue4 holds the targets of issue 4.
var Issue4 = Targets{PinnedRateRatio: 0.98, PinnedReturn: 100 * time.Microsecond, SmallRatio: 1.5}

// Check is one target's outcome.
type Check struct {
	Name     string
	Ref      string
	Cells    string
	Ratio    string
	Target   string
	Pass     bool
	Measured float64 // the figure held to the target
}

// median returns the median of xs (the mean of the middle two for an even
// count); xs must not be empty.
func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	k := len(s) / 2
	if len(s)%2 == 1 {
		return s[k]
	}
	return (s[k-1] + s[k]) / 2
}

func pick(ts []Timing, f func(Timing) float64) []float64 {
	xs := make([]float64, len(ts))
	for i, t := range ts {
		xs[i] = f(t)
	}
	return xs
}

// wallRate is the rate a caller sees: bytes over the time from just before
// the call until its wait ended.
func wallRate(bytes int64) func(Timing) float64 {
	return func(t Timing) float64 { return float64(bytes) / t.Done / 1e9 }
}

func ret(t Timing) float64 { return t.Return }

func done(t Timing) float64 { return t.Done }

// Checks evaluates the targets on a reference and a cells result.
func Checks(ref, cells *Result, tg Targets) []Check {
	var cs []Check
	rr := median(pick(ref.PinnedWrite, wallRate(ref.Bytes)))
	cr := median(pick(cells.PinnedWrite, wallRate(cells.Bytes)))
	cs = append(cs, Check{
		Name: fmt.Sprintf("pinned write, %s, rate from call to wait end (median of %d / %d)", fmtBytes(cells.Bytes), len(ref.PinnedWrite), len(cells.PinnedWrite)),
		Ref:  fmt.Sprintf("%.2f GB/s", rr), Cells: fmt.Sprintf("%.2f GB/s", cr),
		Ratio: fmt.Sprintf("%.3fx", cr/rr), Target: fmt.Sprintf("≥ %.2fx", tg.PinnedRateRatio),
		Pass: cr/rr >= tg.PinnedRateRatio, Measured: cr / rr,
	})
	rret := median(pick(ref.PinnedWrite, ret))
	cret := median(pick(cells.PinnedWrite, ret))
	cmax := slices.Max(pick(cells.PinnedWrite, ret))
	cs = append(cs, Check{
		Name: fmt.Sprintf("pinned non-blocking write: host blocked (median of %d; cells' max)", len(cells.PinnedWrite)),
		Ref:  fmtDur(rret), Cells: fmt.Sprintf("%s (max %s)", fmtDur(cret), fmtDur(cmax)),
		Ratio: fmt.Sprintf("%.2fx", cret/rret), Target: "≤ " + fmtDur(tg.PinnedReturn.Seconds()),
		Pass: cret <= tg.PinnedReturn.Seconds(), Measured: cret,
	})
	rs, csm := ref.SmallWrite.PerCopy, cells.SmallWrite.PerCopy
	cs = append(cs, Check{
		Name: fmt.Sprintf("8-byte blocking write, per copy (%d in a loop; reference without an event)", cells.SmallWrite.Iters),
		Ref:  fmtDur(rs), Cells: fmtDur(csm),
		Ratio: fmt.Sprintf("%.2fx", csm/rs), Target: fmt.Sprintf("≤ %.1fx", tg.SmallRatio),
		Pass: csm/rs <= tg.SmallRatio, Measured: csm / rs,
	})
	return cs
}

// Compatible says why two results cannot be compared, or returns nil.
func Compatible(ref, other *Result) error {
	var errs []error
	if ref.Device != other.Device || ref.Platform != other.Platform {
		errs = append(errs, fmt.Errorf("the reference ran on %q (%s) but %s on %q (%s): set CLREF_DEVICE and GOCL_CTX to the same device",
			ref.Device, ref.Platform, other.Source, other.Device, other.Platform))
	}
	if ref.N != other.N {
		errs = append(errs, fmt.Errorf("the reference copied %d values but %s %d: run both with the same size", ref.N, other.Source, other.N))
	}
	return errors.Join(errs...)
}

// Write prints the markdown section for bench/RESULTS.md. goref, the same
// calls from compiled Go, may be nil.
func Write(w io.Writer, ref, cells, goref *Result, m Machine, tg Targets, date time.Time) {
	fmt.Fprintf(w, "### Transfers on %s: %s, %s (%d float64)\n\n", ref.Device, ref.Platform, fmtBytes(ref.Bytes), ref.N)
	fmt.Fprintf(w, "Device %s, %s, driver %s. Host CPU %s (%d logical cores), Linux %s, load average %s after the run. Run %s; reference `bench/transfer/clref.c` and cells `bench/transfer/cells.ipynb` in the same run.\n\n",
		ref.Device, ref.DeviceVersion, ref.Driver, m.CPU, m.Cores, m.Kernel, m.LoadAvg, date.UTC().Format("2006-01-02 15:04 UTC"))
	fmt.Fprintln(w, "| target (issue 4) | reference (C) | cells (gocl) | ratio | target | verdict |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|")
	for _, c := range Checks(ref, cells, tg) {
		v := "pass"
		if !c.Pass {
			v = "**FAIL**"
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s |\n", c.Name, c.Ref, c.Cells, c.Ratio, c.Target, v)
	}
	fmt.Fprintln(w, "| cl.Random(5e8) + Sum vs numpy | | | | ≤ 0.5x numpy | see bench/hostmath |")
	fmt.Fprintln(w)

	fmt.Fprintln(w, "Every copy, in order (\"returned\": the call gave control back; \"done\": the wait ended; both from just before the call):")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| step | C returned | C done | C device | C GB/s | cells returned | cells done | cells device | cells GB/s |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|")
	fmt.Fprintf(w, "| clCreateBuffer(COPY_HOST_PTR), pageable | %s | | | | %s | | | |\n", fmtDur(*ref.Create), fmtDur(*cells.Create))
	rows := func(name string, a, b []Timing) {
		for i := 0; i < max(len(a), len(b)); i++ {
			fmt.Fprintf(w, "| %s #%d | %s | %s |\n", name, i+1, cellsOf(a, i), cellsOf(b, i))
		}
	}
	rows("pageable write, non-blocking", ref.PageableWrite, cells.PageableWrite)
	rows("pinned write, non-blocking", ref.PinnedWrite, cells.PinnedWrite)
	rows("pinned read, non-blocking", ref.PinnedRead, cells.PinnedRead)
	rows("pageable read, non-blocking", ref.PageableRead, cells.PageableRead)
	fmt.Fprintln(w)

	fmt.Fprintln(w, "| other | reference (C) | cells (gocl) |")
	fmt.Fprintln(w, "|---|---|---|")
	fmt.Fprintf(w, "| 8-byte blocking write, per copy | %s without an event", fmtDur(ref.SmallWrite.PerCopy))
	if ref.SmallEvent != nil {
		fmt.Fprintf(w, "; %s with an event released each time", fmtDur(ref.SmallEvent.PerCopy))
	}
	if ref.SmallCB != nil {
		fmt.Fprintf(w, "; %s also registering a no-op completion callback", fmtDur(ref.SmallCB.PerCopy))
	}
	fmt.Fprintf(w, " | %s |\n", fmtDur(cells.SmallWrite.PerCopy))
	if cells.SmallEmpty != nil {
		fmt.Fprintf(w, "| the same cell loop without the copy, per iteration | | %s |\n", fmtDur(cells.SmallEmpty.PerIter))
	}
	if len(ref.PinnedCB) > 0 {
		fmt.Fprintf(w, "| pinned write, end of the copy seen by clWaitForEvents / by a completion callback (median \"done\") | %s / %s | %s (Event.Wait) |\n",
			fmtDur(median(pick(ref.PinnedWrite, done))), fmtDur(median(pick(ref.PinnedCB, done))), fmtDur(median(pick(cells.PinnedWrite, done))))
	}
	if b := bindingShare(cells.PinnedWrite); b != "" {
		fmt.Fprintf(w, "| pinned write: the C call alone, as the binding timed it (median) | | %s |\n", b)
	}
	if goref != nil {
		fmt.Fprintf(w, "| compiled Go through clapi, no interpreter (bench/transfer/goref): 8-byte blocking write per copy | | %s |\n", fmtDur(goref.SmallWrite.PerCopy))
		fmt.Fprintf(w, "| compiled Go through clapi: pinned write, median returned / done | | %s / %s |\n",
			fmtDur(median(pick(goref.PinnedWrite, ret))), fmtDur(median(pick(goref.PinnedWrite, done))))
	}
	if cells.TopLevel != nil {
		fmt.Fprintf(w, "| pinned write written as three top-level cell statements: returned after | | %s |\n", fmtDur(cells.TopLevel.Return))
	}
	fmt.Fprintln(w)
}

func cellsOf(ts []Timing, i int) string {
	if i >= len(ts) {
		return " | | | "
	}
	t := ts[i]
	return fmt.Sprintf("%s | %s | %s | %.2f", fmtDur(t.Return), fmtDur(t.Done), fmtDur(t.Device), t.GBps)
}

func bindingShare(ts []Timing) string {
	var xs []float64
	for _, t := range ts {
		if t.Binding != nil {
			xs = append(xs, *t.Binding)
		}
	}
	if len(xs) == 0 {
		return ""
	}
	return fmtDur(median(xs))
}

// fmtDur writes seconds with a unit that keeps three significant digits.
func fmtDur(s float64) string {
	switch a := math.Abs(s); {
	case a >= 1:
		return fmt.Sprintf("%.3f s", s)
	case a >= 1e-3:
		return fmt.Sprintf("%.2f ms", s*1e3)
	default:
		return fmt.Sprintf("%.1f us", s*1e6)
	}
}

// fmtBytes writes a size in decimal units, as rates in GB/s are.
func fmtBytes(b int64) string {
	switch {
	case b >= 1e9:
		return fmt.Sprintf("%.2f GB", float64(b)/1e9)
	case b >= 1e6:
		return fmt.Sprintf("%.1f MB", float64(b)/1e6)
	default:
		return fmt.Sprintf("%d bytes", b)
	}
}
