package dispatch

import (
	"testing"
	"time"

	"github.com/seed43a1e1ab/gocl/kernel/wire"
)

func msgAt(date string) *wire.Message {
	m := &wire.Message{}
	m.Header.Date = date
	return m
}

// TestPressSentBeforeTheCellIsStale: a press sent before the running
// request, read soon after it began, is ignored; a press sent after it, one
// with no date, or one read long after the request began, stops it.
func TestPressSentBeforeTheCellIsStale(t *testing.T) {
	var r running
	r.begin(msgAt("2026-12-02T14:27:33.500000+00:00")) // jupyter_client's form
	now := r.began.Add(50 * time.Millisecond)
	for _, c := range []struct {
		press string
		now   time.Time
		stale bool
	}{
		{"2026-12-02T14:27:33.400000Z", now, true},  // the second click of a double click
		{"2026-12-02T14:27:33.600000Z", now, false}, // a press on this cell
		{"", now, false},          // no date: stop, as before
		{"yesterday", now, false}, // a bad date: stop, as before
		{"2026-12-02T14:27:33.400000Z", r.began.Add(3 * time.Second), false}, // another clock, long after the start
	} {
		if got := r.stale(headerDate(msgAt(c.press)), c.now); got != c.stale {
			t.Errorf("press %q read %v after the start: stale %v, want %v", c.press, c.now.Sub(r.began), got, c.stale)
		}
	}
	var none running
	none.begin(msgAt(""))
	if none.stale(headerDate(msgAt("2026-12-02T14:27:33.400000Z")), none.began) {
		t.Error("a request with no date made a press stale")
	}
}
