package transport

import (
	"log/slog"
	"sync"
	"time"
)

// rateLog writes at most rateBurst warnings of each kind per interval, so
// that an attacker repeating one fault cannot flood the kernel's log; the
// next line of a kind says how many of it were left out.
type rateLog struct {
	log      *slog.Logger
	interval time.Duration

	mu    sync.Mutex
	kinds map[string]*rateKind
}

type rateKind struct {
	start      time.Time // of the current interval
	written    int       // lines written in it
	suppressed int
}

const rateBurst = 20

func newRateLog(log *slog.Logger) *rateLog {
	return &rateLog{log: log, interval: time.Second, kinds: map[string]*rateKind{}}
}

// warn logs msg with args, unless a warning of kind was logged less than an
// interval ago.
func (r *rateLog) warn(kind, msg string, args ...any) {
	r.mu.Lock()
	k := r.kinds[kind]
	if k == nil {
		k = &rateKind{}
		r.kinds[kind] = k
	}
	now := time.Now()
	if now.Sub(k.start) >= r.interval {
		k.start, k.written = now, 0
	}
	if k.written >= rateBurst {
		k.suppressed++
		r.mu.Unlock()
		return
	}
	k.written++
	n := k.suppressed
	k.suppressed = 0
	r.mu.Unlock()
	if n > 0 {
		args = append(args, "like_this_since_last_line", n)
	}
	r.log.Warn(msg, args...)
}
