package transport

import (
	"encoding/json"
	"fmt"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/seed43a1e1ab/gocl/kernel/wire"
)

// Limits of the IOPub queue. Variables, not constants, so that tests can
// shrink them.
var (
	// streamInterval is the least time between two stream messages: text
	// written in between is merged into one message.
	streamInterval = 25 * time.Millisecond
	// maxStreamMessage caps the text of one stream message.
	maxStreamMessage = 1 << 20
	// maxPending caps the stream bytes waiting to be sent. Beyond it stream
	// text is dropped until the queue has drained to resumePending.
	maxPending    = 8 << 20
	resumePending = 2 << 20
	// maxHeld caps the bytes of the other messages (displays, results,
	// errors...) waiting to be sent. They are never dropped: beyond it
	// Publish waits (back-pressure on the cell) until the queue drains.
	maxHeld = 16 << 20
)

// outItem is one queued IOPub message. Stream items grow while they wait.
type outItem struct {
	seq      uint64
	size     int // bytes of content, for a message that is not a stream
	msgType  string
	parent   *wire.Header
	content  any
	metadata map[string]any

	stream bool
	name   string // stream name: "stdout" or "stderr"
	text   []byte
	sealed bool // no more text may be merged in (Flush was called)
}

// streamKey identifies a stream: its parent request and its name.
type streamKey struct {
	parentID string
	name     string
}

type dropRecord struct {
	key    streamKey
	parent *wire.Header
	bytes  int64
}

// ioQueue is the bounded, coalescing queue in front of the IOPub socket.
// Publish appends to it; one goroutine (run) takes messages off the head and
// hands them to send. A message that is not a stream, published when nothing
// is queued or being sent, is sent at once by the publisher instead: status,
// execute_input, results and displays then cost no hand-over to another
// goroutine, which is most of a short cell's round trip on a small machine.
// Only that direct send can block its publisher on the network, and for at
// most the time a subscriber reading minSubRate takes to read the message
// (pub.go); stream output never does.
type ioQueue struct {
	send func(it *outItem, text []byte) // hands one message to the socket

	mu       sync.Mutex
	changed  *sync.Cond // items added, flush asked, message sent, closing
	items    []*outItem
	nextSeq  uint64 // seq of the next item enqueued
	doneSeq  uint64 // every item with seq < doneSeq has been sent
	pending  int    // stream bytes queued
	held     int    // bytes of the other messages queued
	dropping bool
	drops    []dropRecord
	lastNL   bool      // the last stream text queued ended in a newline
	lastSent time.Time // when the last stream message was sent
	urgent   uint64    // items with seq < urgent are sent without pacing
	sending  bool      // a message is being handed to send, outside mu
	flushers int       // goroutines waiting in flush
	closed   bool
	stopped  chan struct{}
}

func newIOQueue(send func(it *outItem, text []byte)) *ioQueue {
	q := &ioQueue{send: send, lastNL: true, stopped: make(chan struct{})}
	q.changed = sync.NewCond(&q.mu)
	go q.run()
	return q
}

// publish queues one message that is not a stream: content is its
// marshaled content (json.RawMessage) or withExtras. It is never merged nor
// dropped.
func (q *ioQueue) publish(msgType string, parent *wire.Header, content any) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		return
	}
	q.flushDrops()
	it := &outItem{msgType: msgType, parent: parent, content: content, size: contentSize(content)}
	if len(q.items) > 0 || q.sending {
		// Back-pressure: wait while too much is held, unless nothing
		// is (one message larger than the bound goes alone). Status
		// messages never wait: two per request, from the dispatcher,
		// so that control requests are answered during a flood.
		for msgType != "status" && q.held > 0 && q.held+it.size > maxHeld && !q.closed {
			q.changed.Wait()
		}
		if q.closed {
			return
		}
		q.held += it.size
		q.push(it)
		return
	}
	// Nothing is ahead of it: send it here, in order by construction.
	it.seq = q.nextSeq
	q.nextSeq++
	q.sendUnlocked(it, nil)
	q.doneSeq = it.seq + 1
	if len(q.items) > 0 || q.flushers > 0 { // else waking run costs a thread wake for nothing
		q.changed.Broadcast()
	}
}

// publishStream queues text written to the stream name ("stdout" or
// "stderr"). It may be merged into the stream message queued before it, or
// dropped if too much is waiting.
func (q *ioQueue) publishStream(parent *wire.Header, name string, text []byte) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		return
	}
	key := streamKey{name: name}
	if parent != nil {
		key.parentID = parent.MsgID
	}
	if q.dropping && q.pending > resumePending || q.pending+len(text) > maxPending {
		q.dropping = true
		q.recordDrop(key, parent, len(text))
		return
	}
	q.dropping = false
	q.flushDrops()
	q.appendStream(key, parent, name, text)
}

// appendStream merges text into the last queued item when it is the same
// stream, or queues a new stream item.
func (q *ioQueue) appendStream(key streamKey, parent *wire.Header, name string, text []byte) {
	if len(text) == 0 {
		return
	}
	if n := len(q.items); n > 0 {
		last := q.items[n-1]
		if last.stream && !last.sealed && last.name == name && sameParent(last.parent, parent) {
			last.text = append(last.text, text...)
			q.pending += len(text)
			q.lastNL = text[len(text)-1] == '\n'
			return
		}
	}
	q.pending += len(text)
	q.lastNL = text[len(text)-1] == '\n'
	q.push(&outItem{msgType: "stream", parent: parent, stream: true, name: name, text: append([]byte(nil), text...)})
}

func (q *ioQueue) push(it *outItem) {
	it.seq = q.nextSeq
	q.nextSeq++
	q.items = append(q.items, it)
	q.changed.Broadcast()
}

func (q *ioQueue) recordDrop(key streamKey, parent *wire.Header, n int) {
	for i := range q.drops {
		if q.drops[i].key == key {
			q.drops[i].bytes += int64(n)
			return
		}
	}
	q.drops = append(q.drops, dropRecord{key: key, parent: parent, bytes: int64(n)})
}

// flushDrops queues the notice of each stream that lost text, so that the
// notice comes right where the text went missing.
func (q *ioQueue) flushDrops() {
	for _, d := range q.drops {
		notice := fmt.Sprintf("[gocl: %s of output dropped: the front end could not keep up]\n", formatBytes(d.bytes))
		if !q.lastNL {
			notice = "\n" + notice
		}
		q.appendStream(d.key, d.parent, d.key.name, []byte(notice))
	}
	q.drops = q.drops[:0]
}

// sendUnlocked hands one message to send with mu released, marking the queue
// busy so that nothing else is sent meanwhile. mu must be held.
func (q *ioQueue) sendUnlocked(it *outItem, text []byte) {
	q.sending = true
	q.mu.Unlock()
	defer func() {
		q.mu.Lock()
		q.sending = false
	}()
	q.send(it, text)
}

// flush waits until every message queued before the call has been handed to
// the socket, or until timeout. It reports whether that happened.
func (q *ioQueue) flush(timeout time.Duration) bool {
	q.mu.Lock()
	idle := q.doneSeq == q.nextSeq && len(q.drops) == 0
	q.mu.Unlock()
	if idle {
		return true
	}
	deadline := time.Now().Add(timeout)
	timer := time.AfterFunc(timeout, func() {
		q.mu.Lock()
		q.changed.Broadcast()
		q.mu.Unlock()
	})
	defer timer.Stop()

	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.drops) > 0 {
		q.flushDrops()
	}
	target := q.nextSeq
	if n := len(q.items); n > 0 {
		q.items[n-1].sealed = true
	}
	if target > q.urgent {
		q.urgent = target
	}
	q.changed.Broadcast()
	q.flushers++
	defer func() { q.flushers-- }()
	for q.doneSeq < target && !q.closed {
		if !time.Now().Before(deadline) {
			return false
		}
		q.changed.Wait()
	}
	return q.doneSeq >= target
}

// run sends queued messages in order until close.
func (q *ioQueue) run() {
	defer close(q.stopped)
	q.mu.Lock()
	defer q.mu.Unlock()
	for {
		for len(q.items) == 0 && !q.closed {
			if len(q.drops) > 0 {
				// Everything has drained: stream text is welcome again,
				// and the notice must not wait for more output.
				q.dropping = false
				q.flushDrops()
				continue
			}
			q.changed.Wait()
		}
		if len(q.items) == 0 {
			return // closed and drained
		}
		if q.sending { // a publisher is sending a message queued before these
			q.changed.Wait()
			continue
		}
		head := q.items[0]
		if !head.stream {
			q.items = q.items[1:]
			q.held -= head.size
			q.sendUnlocked(head, nil)
			q.doneSeq = head.seq + 1
			q.changed.Broadcast()
			continue
		}
		// Pace stream messages so that text written in between merges,
		// unless someone waits in flush, the kernel is closing, or
		// something is queued behind the stream (then nothing more can
		// merge into it, and waiting would only slow a cell that
		// interleaves prints and displays to one message per interval).
		if wait := streamInterval - time.Since(q.lastSent); wait > 0 && len(q.items) == 1 && head.seq >= q.urgent && !q.closed {
			t := time.AfterFunc(wait, func() {
				q.mu.Lock()
				q.changed.Broadcast()
				q.mu.Unlock()
			})
			q.changed.Wait()
			t.Stop()
			continue
		}
		n := cutPoint(head.text, maxStreamMessage)
		chunk := head.text[:n:n]
		head.text = head.text[n:]
		q.pending -= n
		last := len(head.text) == 0
		if last {
			q.items = q.items[1:]
		}
		q.sendUnlocked(head, chunk)
		q.lastSent = time.Now()
		if last {
			q.doneSeq = head.seq + 1
		}
		q.changed.Broadcast()
	}
}

// close sends what is queued, waiting at most timeout, then stops the queue.
func (q *ioQueue) close(timeout time.Duration) {
	q.flush(timeout)
	q.mu.Lock()
	q.closed = true
	q.items, q.held = nil, 0
	q.changed.Broadcast()
	q.mu.Unlock()
	select {
	case <-q.stopped:
	case <-time.After(timeout):
	}
}

// contentSize is the size of a message's content, as Publish hands it over
// (marshaled).
func contentSize(content any) int {
	switch c := content.(type) {
	case json.RawMessage:
		return len(c)
	case withExtras: // PublishWith: binary buffers count too
		n := len(c.content)
		for _, b := range c.buffers {
			n += len(b)
		}
		return n
	}
	return 256
}

// cutPoint returns how many bytes of text, at most max, to send in one
// message, without splitting a UTF-8 sequence.
func cutPoint(text []byte, max int) int {
	if len(text) <= max {
		return len(text)
	}
	n := max
	for i := 0; i < utf8.UTFMax && n > 0 && !utf8.RuneStart(text[n]); i++ {
		n--
	}
	if n == 0 {
		return max
	}
	return n
}

func sameParent(a, b *wire.Header) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.MsgID == b.MsgID
}

// formatBytes writes n like "93.4 MB".
func formatBytes(n int64) string {
	switch {
	case n >= 1e9:
		return fmt.Sprintf("%.1f GB", float64(n)/1e9)
	case n >= 1e6:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	case n >= 1e3:
		return fmt.Sprintf("%.1f kB", float64(n)/1e3)
	}
	return fmt.Sprintf("%d bytes", n)
}

// StreamContent is the content of a "stream" message, as the queue sends the
// text given to PublishStream.
type StreamContent struct {
	Name string `json:"name"` // "stdout" or "stderr"
	Text string `json:"text"`
}
