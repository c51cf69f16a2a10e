package supervisor

import (
	"io"
	"sync/atomic"
	"time"
)

// The engine is judged frozen by its own silence, never by the
// supervisor's: a ping is answered by a pong on the same connection, and
// the engine counts as silent only for the time the supervisor was waiting
// for bytes from it, since the ping went out, without getting any.
//
// Deciding it from which case of a select wins, as the supervisor once did,
// killed live engines: after the supervisor's loop came back from a long
// display (a slow IOPub subscriber, a 200 MB display on a busy machine), the
// ping tick and the pong that had already come were both ready, and the
// select picked the tick at random.

// heardReader is the engine connection's read side; it records when the
// supervisor waits for the engine and when bytes came.
type heardReader struct {
	r io.Reader
	// waiting is when the Read in progress began (unix ns), 0 when no Read
	// is in progress: then the supervisor is busy elsewhere (handing an
	// event on), and the engine's silence is not the engine's doing.
	waiting atomic.Int64
	// heard is when bytes last came (unix ns).
	heard atomic.Int64
}

func (h *heardReader) Read(b []byte) (int, error) {
	h.waiting.Store(time.Now().UnixNano())
	n, err := h.r.Read(b)
	if n > 0 {
		h.heard.Store(time.Now().UnixNano())
	}
	h.waiting.Store(0)
	return n, err
}

// silence returns how long the engine has sent nothing while the supervisor
// waited for it, counted from since (when a ping was sent).
func (h *heardReader) silence(since, now time.Time) time.Duration {
	if h.heard.Load() >= since.UnixNano() {
		return 0 // it spoke after the ping
	}
	w := h.waiting.Load()
	if w == 0 {
		return 0 // we are not listening: the wait is ours
	}
	from := max(w, since.UnixNano())
	return now.Sub(time.Unix(0, from))
}
