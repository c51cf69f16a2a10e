package clapi

/*
#include "gocl_cl.h"
*/
import "C"

import (
	"fmt"
	"html"
	"sort"
	"strings"
	"time"

	"github.com/seed43a1e1ab/gocl/clapi/viz"
)

// clockMap maps one device's profiling clock to host time: the device time
// devNs happened at host time hostAt, within ±bound.
type clockMap struct {
	hostAt time.Time
	devNs  int64
	bound  time.Duration
	method string
}

func (m clockMap) host(devNs int64) time.Time { return m.hostAt.Add(time.Duration(devNs - m.devNs)) }

// forceAnchor makes calibrate skip clGetDeviceAndHostTimer (for tests).
var forceAnchor = false

// calibrate maps q's device clock to host time.
//
// Where the device and platform are OpenCL 2.1+, clGetDeviceAndHostTimer
// reads the device clock; the host time is taken just before and after the
// call, and the midpoint is used: the error is at most half the call's
// duration plus the device timer's resolution.
//
// Otherwise (or if that call fails) it anchors on a command observed from
// the host: after the queue drains, a marker is enqueued at host time t1 and
// seen complete at t2; its device END lies in [t1, t2], so the midpoint is
// used with an error of at most (t2-t1)/2 plus the timer resolution. Clock
// drift between calibration and the events (parts per million over
// seconds) is not corrected.
func calibrate(q *Queue) (clockMap, bool) {
	dev := q.dev
	if !forceAnchor && dev.AtLeast(2, 1) && dev.Platform.AtLeast(2, 1) {
		var d, h C.cl_ulong
		t1 := time.Now()
		rc := C.gocl_device_host_timer(dev.id, &d, &h)
		t2 := time.Now()
		if rc == C.CL_SUCCESS && d != 0 {
			half := t2.Sub(t1) / 2
			return clockMap{hostAt: t1.Add(half), devNs: int64(d), bound: half + dev.TimerResolution, method: "clGetDeviceAndHostTimer"}, true
		}
	}
	if !q.Profiling() {
		return clockMap{}, false
	}
	if err := internalMarker(q).wait(); err != nil {
		return clockMap{}, false
	}
	t1 := time.Now()
	ev := internalMarker(q)
	C.clFlush(q.handle("clFlush"))
	if err := ev.wait(); err != nil {
		return clockMap{}, false
	}
	t2 := time.Now()
	end := ev.End()
	ev.Release()
	half := t2.Sub(t1) / 2
	return clockMap{hostAt: t1.Add(half), devNs: end, bound: half + dev.TimerResolution, method: "marker anchor"}, true
}

// TimelineView is what [Timeline] returns: spans on one host time axis, a
// lane per host thread for the calls and one per queue for the device
// commands.
type TimelineView struct {
	Title      string
	Spans      []viz.Span
	Method     string        // how device time was mapped to host time
	ErrorBound time.Duration // worst error of that mapping (largest over queues)
	Skipped    []string      // events shown without a device span, and why

	t0     time.Time
	calls  []hostCall
	events []*Event
	maps   map[*Queue]clockMap
}

// Timeline waits for the events and lays them out on one time axis from the
// earliest enqueue: a host lane with each enqueue call (start to return; a
// lane per host thread when calls came from several) and a lane per queue
// with each command's device execution (START to END), preceded by its
// queued (QUEUED to SUBMIT) and submitted (SUBMIT to START) stages drawn
// thin. Events of queues without cl.Profiling get only their host span.
// The same timeline saves as Chrome trace event JSON with TraceJSON and
// SaveTrace.
//
// Device timestamps are mapped to host time once per queue. Where the
// device and platform are OpenCL 2.1+ and clGetDeviceAndHostTimer works,
// the device clock is read between two host clock readings, and the
// midpoint is used: the error is at most half that call's duration plus the
// device timer's resolution. Otherwise (PoCL 3.1, for one) the mapping is
// anchored on a command observed from the host: once the queue has drained,
// a marker is enqueued at host time t1 and seen complete at t2, so its
// device END lies in [t1, t2]; the midpoint is used, with an error of at most
// (t2-t1)/2 plus the timer resolution. Clock drift between the events and
// the calibration (parts per million over seconds) is not corrected.
// ErrorBound reports the worst bound over the queues.
func Timeline(events ...*Event) *TimelineView {
	if len(events) == 0 {
		refuse("Timeline", "CL_INVALID_VALUE", "no events given", "pass the events to show: cl.Timeline(ev1, ev2)")
	}
	for _, e := range events {
		if e == nil {
			refuse("Timeline", "CL_INVALID_EVENT", "an event is nil", "")
		}
	}
	return buildTimeline(nil, events)
}

// buildTimeline lays out host calls and commands.
func buildTimeline(calls []hostCall, events []*Event) *TimelineView {
	t := &TimelineView{Title: "OpenCL timeline", calls: calls, events: events, maps: map[*Queue]clockMap{}}
	for _, e := range events {
		e.wait() // failed or interrupted events are shown as far as known
	}
	t0 := time.Time{}
	first := func(x time.Time) {
		if t0.IsZero() || x.Before(t0) {
			t0 = x
		}
	}
	for _, e := range events {
		first(e.info.start)
	}
	for _, c := range calls {
		first(c.start)
	}
	t.t0 = t0
	lanes := hostLanes(calls, events)
	for _, c := range calls {
		t.Spans = append(t.Spans, viz.Span{Lane: lanes[c.tid], Label: c.name, Kind: "host", Start: c.start.Sub(t0), End: c.end.Sub(t0)})
	}
	var methods []string
	for _, e := range events {
		t.Spans = append(t.Spans, viz.Span{Lane: lanes[e.info.tid], Label: e.hostName(), Kind: "host",
			Start: e.info.start.Sub(t0), End: e.info.ret.Sub(t0), Bytes: e.info.bytes})
		if e.queue == nil {
			continue
		}
		p, ok := e.tryProfile()
		if !ok {
			t.Skipped = append(t.Skipped, e.info.command+": no device times (queue without cl.Profiling, or the command failed)")
			continue
		}
		m, seen := t.maps[e.queue]
		if !seen {
			var ok bool
			if m, ok = calibrate(e.queue); !ok {
				t.Skipped = append(t.Skipped, e.info.command+": its queue's clock could not be mapped")
				continue
			}
			t.maps[e.queue] = m
			methods = append(methods, m.method)
			if m.bound > t.ErrorBound {
				t.ErrorBound = m.bound
			}
		}
		sp := viz.Span{Lane: e.queue.lane(), Label: e.deviceName(), Kind: spanKind(e),
			Start: m.host(p[2]).Sub(t0), End: m.host(p[3]).Sub(t0), Bytes: e.info.bytes}
		if p[0] > 0 && p[1] >= p[0] && p[2] >= p[1] {
			sp.Stages = true
			sp.Queued, sp.Submitted = m.host(p[0]).Sub(t0), m.host(p[1]).Sub(t0)
		}
		t.Spans = append(t.Spans, sp)
	}
	sort.Strings(methods)
	t.Method = strings.Join(dedupe(methods), ", ")
	return t
}

// hostLanes names a lane per host thread: "host" when every call came from
// one thread, else "host thread TID".
func hostLanes(calls []hostCall, events []*Event) map[int]string {
	tids := map[int]bool{}
	for _, c := range calls {
		tids[c.tid] = true
	}
	for _, e := range events {
		tids[e.info.tid] = true
	}
	out := map[int]string{}
	for tid := range tids {
		out[tid] = "host"
		if len(tids) > 1 {
			out[tid] = fmt.Sprintf("host thread %d", tid)
		}
	}
	return out
}

// hostName is the call as a host trace names it: the OpenCL entry point,
// with the kernel's name for launches, as CLIntercept writes them.
func (e *Event) hostName() string {
	if e.info.kernel != nil {
		return e.info.api + "( " + e.info.kernel.name + " )"
	}
	return e.info.command
}

// deviceName is the command as a queue's row names it.
func (e *Event) deviceName() string {
	if e.info.kernel != nil {
		return e.info.kernel.name
	}
	return e.info.command
}

func spanKind(e *Event) string {
	switch e.info.direction {
	case HostToDevice:
		return "write"
	case DeviceToHost:
		return "read"
	case DeviceToDevice:
		return "copy"
	}
	c := e.info.command
	switch {
	case strings.HasPrefix(c, "kernel "):
		return "kernel"
	case strings.Contains(c, "Fill"):
		return "fill"
	case strings.Contains(c, "Map") || strings.Contains(c, "Unmap"):
		return "map"
	case strings.Contains(c, "Marker") || strings.Contains(c, "Barrier"):
		return "marker"
	}
	return "other"
}

func dedupe(s []string) []string {
	var out []string
	for i, x := range s {
		if i == 0 || x != s[i-1] {
			out = append(out, x)
		}
	}
	return out
}

// SVG draws the timeline.
func (t *TimelineView) SVG() string { return viz.TimelineSVG(t.Title, t.Spans) }

// Table lists the spans as an HTML table.
func (t *TimelineView) Table() string { return viz.TimelineTable(t.Spans) }

// HTML is the drawing followed by how device times were placed.
func (t *TimelineView) HTML() string {
	return t.SVG() + "<p style=\"font-size:smaller\">" + html.EscapeString(t.note()) + "</p>"
}

func (t *TimelineView) note() string {
	s := "Host lanes: call start to return. Device lanes: command START to END, after its queued and submitted stages (thin)"
	if t.Method != "" {
		s += fmt.Sprintf(", placed on the host clock by %s (error at most ±%s)", t.Method, t.ErrorBound)
	}
	s += "."
	if len(t.Skipped) > 0 {
		s += " Not placed: " + strings.Join(t.Skipped, "; ") + "."
	}
	return s
}

// String lists the spans, one per line.
func (t *TimelineView) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n", t.Title)
	for _, s := range t.Spans {
		fmt.Fprintf(&b, "%-28s %-30s %12s → %12s\n", s.Lane, s.Label, s.Start, s.End)
	}
	b.WriteString(t.note())
	return b.String()
}
