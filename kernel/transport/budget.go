package transport

import (
	"sync"
	"sync/atomic"
)

// unverifiedBudget bounds the bytes that all the connections of a server
// together may hold in large frames of messages whose signature is not known
// to be good yet: without it, ten connections each sending a badly signed
// 100 MB message at once held a gigabyte before the signatures were checked.
// A frame larger than budgetFrame before the content frame has ended
// reserves its size; a connection that would go over the budget waits (its
// peer is held back by TCP) until others release theirs, unless it holds all
// that is reserved itself, so one message larger than the budget still goes
// through, alone. Smaller frames are not counted.
//
// The price: while one peer holds the budget (say, by sending a large
// unsigned frame slowly), large unverified frames from others wait. Small
// messages, and the buffers of a verified message, never do.
type unverifiedBudget struct {
	mu   sync.Mutex
	cond *sync.Cond
	max  uint64
	used uint64
}

// budgetFrame is the size above which an unverified frame is counted.
const budgetFrame = 64 << 10

// defaultBudget is the budget's size, unless a frame limit is lower.
const defaultBudget = 64 << 20

func newUnverifiedBudget(max uint64) *unverifiedBudget {
	b := &unverifiedBudget{max: max}
	b.cond = sync.NewCond(&b.mu)
	return b
}

// acquire reserves n more bytes for a connection that holds mine already,
// waiting while they do not fit. It gives up, reserving nothing, when
// closed is set (the connection is being closed; wake it with wake).
func (b *unverifiedBudget) acquire(n, mine uint64, closed *atomic.Bool) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	for b.used+n > b.max && b.used != mine {
		if closed.Load() {
			return false
		}
		b.cond.Wait()
	}
	if closed.Load() {
		return false
	}
	b.used += n
	return true
}

// release gives back n bytes.
func (b *unverifiedBudget) release(n uint64) {
	if n == 0 {
		return
	}
	b.mu.Lock()
	b.used -= n
	b.cond.Broadcast()
	b.mu.Unlock()
}

// wake wakes the waiters, so that those of closed connections give up.
func (b *unverifiedBudget) wake() {
	b.mu.Lock()
	b.cond.Broadcast()
	b.mu.Unlock()
}

// reserved returns the bytes reserved now.
func (b *unverifiedBudget) reserved() uint64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.used
}
