package clapi_test

import (
	"math"
	"sort"
	"strings"
	"testing"
)

// traceDoc is the Chrome trace event format's JSON object form, read
// loosely so that the checks below, not the decoder, judge it.
type traceDoc struct {
	TraceEvents     []traceEv      `json:"traceEvents"`
	DisplayTimeUnit string         `json:"displayTimeUnit"`
	OtherData       map[string]any `json:"otherData"`
}

type traceEv struct {
	Name string         `json:"name"`
	Cat  string         `json:"cat"`
	Ph   string         `json:"ph"`
	Ts   *float64       `json:"ts"`
	Dur  *float64       `json:"dur"`
	Pid  *int           `json:"pid"`
	Tid  *int           `json:"tid"`
	ID   *int64         `json:"id"`
	Bp   string         `json:"bp"`
	Args map[string]any `json:"args"`
}

// queueTid mirrors clapi's queue rows: tids from 1<<30 up.
func queueTid(tid int) bool { return tid >= 1<<30 }

// validateTrace checks a trace against the trace event format as
// Perfetto and chrome://tracing read it: known phases with their required
// fields, names for every row, complete events that nest on each row, and
// flows whose two ends each bind to a slice.
func validateTrace(t *testing.T, d traceDoc) {
	t.Helper()
	if len(d.TraceEvents) == 0 {
		t.Fatal("no traceEvents")
	}
	if d.DisplayTimeUnit != "ns" && d.DisplayTimeUnit != "ms" {
		t.Errorf("displayTimeUnit %q is neither ms nor ns", d.DisplayTimeUnit)
	}
	named := map[int]bool{}
	slices := map[int][]traceEv{}
	type flowKey struct {
		cat, name string
		id        int64
	}
	starts := map[flowKey]traceEv{}
	var finishes []traceEv
	haveProcess, haveOffset := false, false
	for i, e := range d.TraceEvents {
		if e.Name == "" || e.Pid == nil || e.Tid == nil {
			t.Fatalf("event %d lacks name, pid or tid: %+v", i, e)
		}
		switch e.Ph {
		case "M":
			switch e.Name {
			case "process_name", "thread_name":
				if n, ok := e.Args["name"].(string); !ok || n == "" {
					t.Errorf("metadata %s without args.name", e.Name)
				}
				if e.Name == "thread_name" {
					named[*e.Tid] = true
				} else {
					haveProcess = true
				}
			case "thread_sort_index":
				if _, ok := e.Args["sort_index"].(float64); !ok {
					t.Errorf("thread_sort_index without a numeric sort_index: %v", e.Args)
				}
			case "gocl_clock_offset":
				haveOffset = true
				for _, k := range []string{"method", "device_ns_at_start", "error_bound_ns"} {
					if _, ok := e.Args[k]; !ok {
						t.Errorf("gocl_clock_offset lacks %s: %v", k, e.Args)
					}
				}
			}
		case "X":
			if e.Ts == nil || e.Dur == nil || *e.Dur < 0 || *e.Ts < -1e6 {
				t.Fatalf("complete event %q without ts and a non-negative dur", e.Name)
			}
			slices[*e.Tid] = append(slices[*e.Tid], e)
		case "s", "f":
			if e.Ts == nil || e.ID == nil || e.Cat == "" {
				t.Fatalf("flow event %q without ts, id or cat", e.Name)
			}
			if e.Ph == "s" {
				starts[flowKey{e.Cat, e.Name, *e.ID}] = e
			} else {
				if e.Bp != "e" {
					t.Errorf("flow end %d does not bind to its enclosing slice (bp %q)", *e.ID, e.Bp)
				}
				finishes = append(finishes, e)
			}
		default:
			t.Errorf("event %q has phase %q, which this trace should not use", e.Name, e.Ph)
		}
	}
	if !haveProcess || !haveOffset {
		t.Errorf("missing process_name (%v) or the clock offset (%v)", haveProcess, haveOffset)
	}
	const eps = 0.0015 // µs: ts and dur are rounded to the nanosecond
	for tid, ss := range slices {
		if !named[tid] {
			t.Errorf("row %d has slices but no thread_name", tid)
		}
		sort.SliceStable(ss, func(i, j int) bool { return *ss[i].Ts < *ss[j].Ts })
		var stack []float64 // ends
		for _, s := range ss {
			for len(stack) > 0 && stack[len(stack)-1] <= *s.Ts+eps {
				stack = stack[:len(stack)-1]
			}
			end := *s.Ts + *s.Dur
			if len(stack) > 0 && end > stack[len(stack)-1]+eps {
				t.Errorf("row %d: %q [%.3f, %.3f] partly overlaps an enclosing slice ending at %.3f", tid, s.Name, *s.Ts, end, stack[len(stack)-1])
			}
			stack = append(stack, end)
		}
	}
	encloses := func(tid int, ts float64) bool {
		for _, s := range slices[tid] {
			if *s.Ts-eps <= ts && ts <= *s.Ts+*s.Dur+eps {
				return true
			}
		}
		return false
	}
	for _, f := range finishes {
		s, ok := starts[flowKey{f.Cat, f.Name, *f.ID}]
		if !ok {
			t.Errorf("flow end %d has no start", *f.ID)
			continue
		}
		if !encloses(*s.Tid, *s.Ts) || !encloses(*f.Tid, *f.Ts) {
			t.Errorf("flow %d: an end is not inside a slice of its row", *f.ID)
		}
	}
	if len(finishes) == 0 {
		t.Error("no flow arrows from calls to commands")
	}
}

// checkHostCalls checks that the host rows hold exactly these calls, in
// this order.
func checkHostCalls(t *testing.T, d traceDoc, want []string) {
	t.Helper()
	var calls []traceEv
	for _, e := range d.TraceEvents {
		if e.Ph == "X" && !queueTid(*e.Tid) {
			calls = append(calls, e)
		}
	}
	sort.SliceStable(calls, func(i, j int) bool { return *calls[i].Ts < *calls[j].Ts })
	var got []string
	for _, c := range calls {
		got = append(got, c.Name)
	}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("host calls:\n got %v\nwant %v", got, want)
	}
}

// checkCommands checks that the queue rows hold these commands, each as
// Queued, Submitted and Execution stages that follow each other, in this
// order of execution, each the end of a flow from its call.
func checkCommands(t *testing.T, d traceDoc, want []string) {
	t.Helper()
	type cmd struct {
		name   string
		stages map[string]traceEv
	}
	byID := map[int64]*cmd{}
	flowEnds := map[int64]bool{}
	for _, e := range d.TraceEvents {
		if e.Ph == "f" {
			flowEnds[*e.ID] = true
		}
		if e.Ph != "X" || !queueTid(*e.Tid) {
			continue
		}
		id := int64(e.Args["id"].(float64))
		i := strings.LastIndex(e.Name, " (")
		if i < 0 {
			t.Errorf("command %q is not split in stages", e.Name)
			continue
		}
		c := byID[id]
		if c == nil {
			c = &cmd{name: e.Name[:i], stages: map[string]traceEv{}}
			byID[id] = c
		}
		c.stages[e.Name[i+1:]] = e
	}
	var cmds []*cmd
	var ids []int64
	for id, c := range byID {
		ids = append(ids, id)
		for _, st := range []string{"(Queued)", "(Submitted)", "(Execution)"} {
			if _, ok := c.stages[st]; !ok {
				t.Fatalf("command %s lacks its %s stage", c.name, st)
			}
		}
		q, s, x := c.stages["(Queued)"], c.stages["(Submitted)"], c.stages["(Execution)"]
		if math.Abs(*q.Ts+*q.Dur-*s.Ts) > 0.002 || math.Abs(*s.Ts+*s.Dur-*x.Ts) > 0.002 {
			t.Errorf("command %s: stages do not follow each other: %v+%v, %v+%v, %v", c.name, *q.Ts, *q.Dur, *s.Ts, *s.Dur, *x.Ts)
		}
		if !flowEnds[id] {
			t.Errorf("command %s has no flow arrow from its call", c.name)
		}
	}
	sort.Slice(ids, func(i, j int) bool {
		return *byID[ids[i]].stages["(Execution)"].Ts < *byID[ids[j]].stages["(Execution)"].Ts
	})
	var got []string
	for _, id := range ids {
		cmds = append(cmds, byID[id])
		got = append(got, byID[id].name)
	}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("commands in order of execution:\n got %v\nwant %v", got, want)
	}
}
