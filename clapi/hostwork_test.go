package clapi

import (
	"strings"
	"testing"
	"time"
)

func TestTimelineWithHost(t *testing.T) {
	if len(Platforms()) == 0 {
		t.Skip("no OpenCL platform")
	}
	ctx := CreateSomeContext()
	defer ctx.Release()
	q := NewQueue(ctx, Profiling)
	defer q.Release()
	buf := NewBufferSize(ctx, ReadWrite, 8<<10)
	defer buf.Release()
	src := Random(1 << 10)
	ev := EnqueueCopy(q, buf, src, NonBlocking)
	start := time.Now()
	Sum(src)
	end := time.Now()
	ev.Wait()
	tl := TimelineWithHost([]HostWork{{Label: "sum", Start: start, End: end}}, ev)
	var found bool
	for _, s := range tl.Spans {
		if s.Lane == "host work" {
			found = true
			if s.Label != "sum" || s.Start < 0 || s.End-s.Start != end.Sub(start) {
				t.Errorf("host work span = %+v, want label sum, start >= 0, length %v", s, end.Sub(start))
			}
		}
	}
	if !found || !strings.Contains(tl.SVG(), "host work") {
		t.Errorf("no host work lane: %+v", tl.Spans)
	}
	err := Try(func() { TimelineWithHost([]HostWork{{Label: "bad", Start: end, End: start}}, ev) })
	if err == nil || !strings.Contains(err.Error(), "ends before it starts") {
		t.Errorf("backwards host work: err = %v", err)
	}
}
