package dispatch

import (
	"time"

	"github.com/seed43a1e1ab/gocl/kernel/wire"
)

// A client sends interrupt_request on the control channel and the next
// cell's execute_request on shell; the kernel reads the two channels side by
// side, so a press sent before a cell may be read after that cell began. A
// double click on the interrupt button, then the next cell, then stopped
// that next cell (seen under load in e2e/jupyter's test_interrupt). So a
// press whose header says it was sent before the running request was, and
// that is read within staleWindow of that request's start, was meant for an
// earlier request and is ignored; each message's date is its sender's clock,
// which the window keeps from mattering when two clients' clocks differ.

// staleWindow bounds how long after a request starts a press sent before it
// can still be taken for a late one.
const staleWindow = 2 * time.Second

// running is what the kernel knows of the request it runs: when its sender
// sent it (its header's date) and when it began here.
type running struct {
	sent  time.Time
	began time.Time
}

// begin records that the request m begins now.
func (r *running) begin(m *wire.Message) {
	*r = running{sent: headerDate(m), began: time.Now()}
}

// stale reports whether a press sent at pressSent, read at now, was meant for
// an earlier request than this one.
func (r running) stale(pressSent, now time.Time) bool {
	return !pressSent.IsZero() && !r.sent.IsZero() && pressSent.Before(r.sent) && now.Sub(r.began) < staleWindow
}

// headerDate parses a message's header date; the zero time when it has none
// or it does not parse.
func headerDate(m *wire.Message) time.Time {
	if m == nil || m.Header.Date == "" {
		return time.Time{}
	}
	t, err := time.Parse(time.RFC3339Nano, m.Header.Date)
	if err != nil {
		return time.Time{}
	}
	return t
}

// interruptRequest is interrupt_request: it stops the running request, unless
// the press was sent before that request was (see above).
func (k *Kernel) interruptRequest(m *wire.Message) {
	k.mu.Lock()
	stale := k.cancel != nil && k.run.stale(headerDate(m), time.Now())
	k.mu.Unlock()
	if stale {
		k.log.Info("interrupt_request sent before the running request: meant for an earlier one, ignored")
		return
	}
	k.Interrupt()
}
