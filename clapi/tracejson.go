package clapi

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"
)

// traceEvent is one record of the Chrome trace event format (the JSON that
// Perfetto and chrome://tracing load).
type traceEvent struct {
	Name  string         `json:"name"`
	Cat   string         `json:"cat,omitempty"`
	Ph    string         `json:"ph"`
	Ts    float64        `json:"ts"`
	Dur   *float64       `json:"dur,omitempty"`
	Pid   int            `json:"pid"`
	Tid   int            `json:"tid"`
	ID    int64          `json:"id,omitempty"`
	Bp    string         `json:"bp,omitempty"`
	Cname string         `json:"cname,omitempty"`
	Args  map[string]any `json:"args,omitempty"`
}

// traceFile is the JSON object form of the format.
type traceFile struct {
	TraceEvents     []traceEvent   `json:"traceEvents"`
	DisplayTimeUnit string         `json:"displayTimeUnit"`
	OtherData       map[string]any `json:"otherData"`
}

// Stage names and colours as CLIntercept writes them with
// ChromePerformanceTimingInStages.
var traceStages = [3]struct{ suffix, cname string }{
	{"(Queued)", "thread_state_runnable"},
	{"(Submitted)", "cq_build_running"},
	{"(Execution)", "thread_state_iowait"},
}

// queueTidBase keeps queue rows apart from host thread ids.
const queueTidBase = 1 << 30

func us(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e3 }

func durp(d time.Duration) *float64 {
	v := us(max(d, 0))
	return &v
}

// TraceJSON writes the timeline as Chrome trace event JSON, in the shape
// Intel's CLIntercept writes with ChromeCallLogging,
// ChromePerformanceTiming and ChromePerformanceTimingInStages: one row per
// host thread ("Host Thread TID") with every cl call as a complete event,
// one row per queue with each command's queued, submitted and execution
// stages (from its four profiling timestamps), a flow arrow from each
// enqueue call to its command, process and thread names, and the clock
// mapping used (metadata "gocl_clock_offset" per queue and in otherData).
// Times are microseconds from the first call; "gocl_start_time" holds that
// instant as Unix microseconds. A queue whose commands overlap in time
// (stages of later commands while one runs) gets further rows, "Queue N
// ... #2", so that events on one row never partly overlap.
func (t *TimelineView) TraceJSON() string {
	pid := os.Getpid()
	var evs []traceEvent
	meta := func(name string, tid int, args map[string]any) {
		evs = append(evs, traceEvent{Name: name, Ph: "M", Pid: pid, Tid: tid, Args: args})
	}
	meta("process_name", 0, map[string]any{"name": fmt.Sprintf("gocl %s (pid %d)", filepath.Base(os.Args[0]), pid)})
	meta("gocl_start_time", 0, map[string]any{"start_time": t.t0.UnixMicro()})

	// Host threads, in order of first appearance.
	var tids []int
	seen := map[int]bool{}
	addTid := func(tid int) {
		if !seen[tid] {
			seen[tid] = true
			tids = append(tids, tid)
		}
	}
	type call struct {
		name       string
		tid        int
		start, end time.Time
		ev         *Event
	}
	var calls []call
	for _, c := range t.calls {
		calls = append(calls, call{c.name, c.tid, c.start, c.end, nil})
	}
	for _, e := range t.events {
		calls = append(calls, call{e.hostName(), e.info.tid, e.info.start, e.info.ret, e})
	}
	sort.SliceStable(calls, func(i, j int) bool { return calls[i].start.Before(calls[j].start) })
	for i := range calls {
		if calls[i].tid == 0 {
			calls[i].tid = pid // calls seen outside a recording: the process's main thread
		}
		addTid(calls[i].tid)
	}
	for i, tid := range tids {
		meta("thread_name", tid, map[string]any{"name": fmt.Sprintf("Host Thread %d", tid)})
		meta("thread_sort_index", tid, map[string]any{"sort_index": 10000 + i})
	}

	// Commands, by queue, with their host-time stages.
	type command struct {
		e      *Event
		id     int64
		stage  [4]time.Duration // queued, submit, start, end from t0
		staged bool
	}
	from := func(c *command) time.Duration {
		if c.staged {
			return c.stage[0]
		}
		return c.stage[2]
	}
	byQueue := map[*Queue][]*command{}
	var queues []*Queue
	ids := map[*Event]int64{}
	for i, e := range t.events {
		ids[e] = int64(i + 1)
		m, ok := t.maps[e.queue]
		if e.queue == nil || !ok {
			continue
		}
		p, ok := e.tryProfile()
		if !ok {
			continue
		}
		c := &command{e: e, id: int64(i + 1)}
		for k := range p {
			c.stage[k] = m.host(p[k]).Sub(t.t0)
		}
		c.staged = p[0] > 0 && p[1] >= p[0] && p[2] >= p[1] && p[3] >= p[2]
		if _, ok := byQueue[e.queue]; !ok {
			queues = append(queues, e.queue)
		}
		byQueue[e.queue] = append(byQueue[e.queue], c)
	}
	other := map[string]any{"generator": "gocl (clapi)", "start_time_unix_us": t.t0.UnixMicro()}
	var offsets []map[string]any

	// Host calls, with the start of a flow for each enqueue that has a
	// command on a queue row.
	hasCommand := map[*Event]bool{}
	for _, q := range queues {
		for _, c := range byQueue[q] {
			hasCommand[c.e] = true
		}
	}
	for _, c := range calls {
		ev := traceEvent{Name: c.name, Ph: "X", Pid: pid, Tid: c.tid, Ts: us(c.start.Sub(t.t0)), Dur: durp(c.end.Sub(c.start))}
		if c.ev != nil {
			ev.Args = c.ev.traceArgs()
			ev.Args["id"] = ids[c.ev]
		}
		evs = append(evs, ev)
		if c.ev != nil && hasCommand[c.ev] {
			evs = append(evs, traceEvent{Name: "Command", Cat: "Commands", Ph: "s", Pid: pid, Tid: c.tid, Ts: us(c.start.Sub(t.t0)), ID: ids[c.ev]})
		}
	}

	for qi, q := range queues {
		cmds := byQueue[q]
		sort.SliceStable(cmds, func(i, j int) bool { return from(cmds[i]) < from(cmds[j]) })
		var rowEnd []time.Duration
		rowTid := func(r int) int { return queueTidBase + int(q.serial)*64 + r }
		for _, c := range cmds {
			r := 0
			for r < len(rowEnd) && rowEnd[r] > from(c) {
				r++
			}
			if r == len(rowEnd) {
				rowEnd = append(rowEnd, 0)
				name := fmt.Sprintf("Queue %d %s (%s)", q.serial, q.dev.Name, q.dev.Type)
				if r > 0 {
					name += fmt.Sprintf(" #%d", r+1)
				}
				meta("thread_name", rowTid(r), map[string]any{"name": name})
				meta("thread_sort_index", rowTid(r), map[string]any{"sort_index": qi*64 + r})
			}
			rowEnd[r] = c.stage[3]
			tid := rowTid(r)
			first := from(c)
			evs = append(evs, traceEvent{Name: "Command", Cat: "Commands", Ph: "f", Bp: "e", Pid: pid, Tid: tid, Ts: us(first), ID: c.id})
			name := c.e.deviceName()
			args := c.e.traceArgs()
			args["id"] = c.id
			if c.staged {
				for k, st := range traceStages {
					evs = append(evs, traceEvent{Name: name + " " + st.suffix, Ph: "X", Pid: pid, Tid: tid, Ts: us(c.stage[k]),
						Dur: durp(c.stage[k+1] - c.stage[k]), Cname: st.cname, Args: args})
				}
			} else {
				evs = append(evs, traceEvent{Name: name, Ph: "X", Pid: pid, Tid: tid, Ts: us(c.stage[2]), Dur: durp(c.stage[3] - c.stage[2]), Args: args})
			}
		}
		m := t.maps[q]
		off := map[string]any{"queue": q.serial, "device": q.dev.Name, "method": m.method,
			"device_ns_at_start": m.devNs - int64(m.hostAt.Sub(t.t0)), "error_bound_ns": m.bound.Nanoseconds()}
		meta("gocl_clock_offset", rowTid(0), off)
		offsets = append(offsets, off)
	}
	other["clock_offsets"] = offsets
	b, err := json.MarshalIndent(traceFile{TraceEvents: evs, DisplayTimeUnit: "ns", OtherData: other}, "", " ")
	if err != nil {
		panic(newError("TraceJSON", 0, err.Error()))
	}
	return string(b)
}

// SaveTrace writes TraceJSON to path and returns the path. Open the file
// in https://ui.perfetto.dev or chrome://tracing.
func (t *TimelineView) SaveTrace(path string) string {
	if err := os.WriteFile(path, []byte(t.TraceJSON()), 0o644); err != nil {
		panic(&Error{Call: "SaveTrace", Name: "WRITE_FAILED", Detail: err.Error(), Hint: "choose a writable path"})
	}
	return path
}

// traceArgs are the figures a trace shows for a command.
func (e *Event) traceArgs() map[string]any {
	a := map[string]any{}
	if e.info.bytes > 0 {
		a["bytes"] = e.info.bytes
	}
	if e.info.direction != "" {
		a["direction"] = e.info.direction
	}
	if e.info.hostMemory != "" {
		a["host_memory"] = e.info.hostMemory
	}
	if k := e.info.kernel; k != nil {
		a["kernel"] = k.name
		a["global"] = k.global
		if k.local != nil {
			a["local"] = k.local
		}
		if k.offset != nil {
			a["offset"] = k.offset
		}
	}
	a["non_blocking"] = e.info.nonBlocking
	return a
}
