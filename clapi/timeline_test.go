package clapi

import (
	"strings"
	"testing"
)

func TestTimeline(t *testing.T) {
	for _, anchor := range []bool{false, true} {
		forceAnchor = anchor
		ctx, q := testQueue(t)
		a := RandomSeed(1<<18, 6)
		buf := NewBufferSize(ctx, ReadWrite, 8*len(a))
		e1 := EnqueueCopy(q, buf, a, NonBlocking)
		e2 := EnqueueCopy(q, a, buf, NonBlocking)
		u := NewUserEvent(ctx)
		u.SetComplete()
		plain := NewQueue(ctx)
		e3 := EnqueueCopy(plain, buf, a)
		tl := Timeline(e1, e2, u, e3)
		forceAnchor = false
		if tl.Method == "" || (anchor && tl.Method != "marker anchor") {
			t.Fatalf("anchor=%v: method %q", anchor, tl.Method)
		}
		var host, dev int
		for _, s := range tl.Spans {
			if s.End < s.Start {
				t.Errorf("span %+v ends before it starts", s)
			}
			if s.Lane == "host" {
				host++
				continue
			}
			dev++
			if !strings.HasPrefix(s.Lane, "queue ") {
				t.Errorf("device lane %q", s.Lane)
			}
		}
		if host != 4 || dev != 2 {
			t.Fatalf("anchor=%v: %d host spans and %d device spans, want 4 and 2", anchor, host, dev)
		}
		// Causality within the error bound: the read starts on the device
		// after its enqueue began, and after the write ended.
		w, r := tl.Spans[1], tl.Spans[3]
		if r.Start+tl.ErrorBound < tl.Spans[2].Start || r.Start+tl.ErrorBound < w.End {
			t.Errorf("anchor=%v: read device span %v..%v is before its enqueue (%v) or the write's end (%v), bound %v",
				anchor, r.Start, r.End, tl.Spans[2].Start, w.End, tl.ErrorBound)
		}
		if len(tl.Skipped) != 1 || !strings.Contains(tl.Skipped[0], "Profiling") {
			t.Errorf("skipped %v", tl.Skipped)
		}
		if !strings.Contains(tl.HTML(), "<svg") || !strings.Contains(tl.Table(), "<table") || !strings.Contains(tl.String(), "clEnqueueWriteBuffer") {
			t.Error("timeline renderings lack their content")
		}
		plain.Release()
	}
	mustFail(t, func() { Timeline() }, "no events")
}
