package clapi

import (
	"time"

	"github.com/seed43a1e1ab/gocl/clapi/viz"
)

// HostWork is a stretch of work the host did, measured with time.Now, to
// show on a timeline beside OpenCL commands (e.g. a sum computed while a
// copy ran).
type HostWork struct {
	Label      string
	Start, End time.Time
}

// TimelineWithHost is [Timeline] with one more lane, "host work", holding
// the given stretches of host work on the same clock as the enqueue calls.
// A stretch that ends before it starts is refused.
func TimelineWithHost(work []HostWork, events ...*Event) *TimelineView {
	for _, w := range work {
		if w.End.Before(w.Start) {
			refuse("TimelineWithHost", "CL_INVALID_VALUE", "host work \""+w.Label+"\" ends before it starts",
				"take Start with time.Now() before the work and End after it")
		}
	}
	t := Timeline(events...) // refuses an empty or nil event list
	// Timeline measures every span from the earliest enqueue call.
	t0 := events[0].info.start
	for _, e := range events {
		if e.info.start.Before(t0) {
			t0 = e.info.start
		}
	}
	for _, w := range work {
		t.Spans = append(t.Spans, viz.Span{Lane: "host work", Label: w.Label, Kind: "host",
			Start: w.Start.Sub(t0), End: w.End.Sub(t0)})
	}
	return t
}
