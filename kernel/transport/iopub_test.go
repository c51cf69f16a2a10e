package transport

import (
	"encoding/json"
	"fmt"
	"regexp"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seed43a1e1ab/gocl/kernel/wire"
)

// recorder is a fake IOPub socket for the queue alone.
type recorder struct {
	mu   sync.Mutex
	msgs []string // "type" or "stream:name:text"
}

func (r *recorder) send(it *outItem, text []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if it.stream {
		r.msgs = append(r.msgs, "stream:"+it.name+":"+string(text))
	} else {
		r.msgs = append(r.msgs, it.msgType)
	}
}

func (r *recorder) all() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.msgs...)
}

func TestQueueMergesStreamsAndKeepsOrder(t *testing.T) {
	r := &recorder{}
	q := newIOQueue(r.send)
	defer q.close(time.Second)
	p1 := &wire.Header{MsgID: "cell1"}
	p2 := &wire.Header{MsgID: "cell2"}
	// Hold the sender so that everything below is queued before it runs.
	q.mu.Lock()
	q.lastSent = time.Now().Add(time.Hour)
	q.mu.Unlock()
	q.publish("status", p1, nil)
	q.publishStream(p1, "stdout", []byte("a"))
	q.publishStream(p1, "stdout", []byte("b"))
	q.publishStream(p1, "stderr", []byte("E"))
	q.publishStream(p1, "stdout", []byte("c"))
	q.publish("execute_result", p1, nil)
	q.publishStream(p1, "stdout", []byte("d"))
	q.publishStream(p2, "stdout", []byte("e")) // other parent: not merged
	q.publishStream(p2, "stdout", []byte("f"))
	q.publish("status", p1, nil)
	if !q.flush(hang) {
		t.Fatal("flush timed out")
	}
	want := []string{"status", "stream:stdout:ab", "stream:stderr:E", "stream:stdout:c", "execute_result",
		"stream:stdout:d", "stream:stdout:ef", "status"}
	if got := r.all(); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("sent %q\nwant %q", got, want)
	}
}

// TestQueueNeverGuessesStreams checks that only text given as a stream is
// merged: a message published as a whole goes as it was given, one
// message each, whatever the shape of its content.
func TestQueueNeverGuessesStreams(t *testing.T) {
	r := &recorder{}
	q := newIOQueue(r.send)
	defer q.close(time.Second)
	p := &wire.Header{MsgID: "cell1"}
	q.mu.Lock()
	q.lastSent = time.Now().Add(time.Hour) // nothing is sent before the flush
	q.mu.Unlock()
	q.publishStream(p, "stdout", []byte("a"))
	q.publish("stream", p, json.RawMessage(`{"name":"stdout","text":"b"}`))
	q.publish("stream", p, json.RawMessage(`{"name":"stdout","text":"c"}`))
	q.publishStream(p, "stdout", []byte("d"))
	q.publishStream(p, "stdout", []byte("e"))
	if !q.flush(hang) {
		t.Fatal("flush timed out")
	}
	want := []string{"stream:stdout:a", "stream", "stream", "stream:stdout:de"}
	if got := r.all(); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("sent %q\nwant %q", got, want)
	}
}

func TestQueueSplitsLargeTextOnRuneBoundaries(t *testing.T) {
	r := &recorder{}
	q := newIOQueue(r.send)
	defer q.close(time.Second)
	text := strings.Repeat("é", maxStreamMessage) // 2 bytes each: 2 MiB
	q.publishStream(nil, "stdout", []byte(text))
	if !q.flush(hang) {
		t.Fatal("flush timed out")
	}
	got := r.all()
	if len(got) < 2 {
		t.Fatalf("%d messages for %d bytes, want at least 2", len(got), len(text))
	}
	var joined strings.Builder
	for _, m := range got {
		chunk := strings.TrimPrefix(m, "stream:stdout:")
		if len(chunk) > maxStreamMessage || !strings.HasPrefix(chunk, "é") || !strings.HasSuffix(chunk, "é") {
			t.Fatalf("chunk of %d bytes is too big or splits a rune", len(chunk))
		}
		joined.WriteString(chunk)
	}
	if joined.String() != text {
		t.Error("chunks do not add up to the text")
	}
}

func TestFormatBytes(t *testing.T) {
	for n, want := range map[int64]string{12: "12 bytes", 1500: "1.5 kB", 93_400_000: "93.4 MB", 2e9: "2.0 GB"} {
		if got := formatBytes(n); got != want {
			t.Errorf("formatBytes(%d) = %q, want %q", n, got, want)
		}
	}
}

var noticeRE = regexp.MustCompile(`^\[gocl: ([0-9.]+) (bytes|kB|MB|GB) of output dropped: the front end could not keep up\]$`)

// TestIOPubFloodStaysBounded prints 100 MB through Publish while a real SUB
// client reads: memory must stay bounded, lines arrive in order with every
// gap announced by a drop notice, and non-stream messages all arrive.
func TestIOPubFloodStaysBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("prints 100 MB")
	}
	s, _ := startServer(t)
	sub := subscribe(t, s)
	parent := &wire.Message{Header: wire.Header{MsgID: "cell", MsgType: "execute_request"}}

	type result struct {
		lines, notices int
		dropped        float64
		err            error
	}
	done := make(chan result, 1)
	go func() {
		var r result
		var pending string
		last := -1
		gap := false
		for {
			zm, err := sub.Recv()
			if err != nil {
				r.err = err
				done <- r
				return
			}
			m, err := testSigner(t).Decode(zm.Frames)
			if err != nil {
				r.err = err
				done <- r
				return
			}
			if m.Header.MsgType == "status" {
				done <- r
				return
			}
			if m.ParentHeader == nil || m.ParentHeader.MsgID != "cell" {
				r.err = fmt.Errorf("message %s without the cell as parent", m.Header.MsgType)
			}
			var c StreamContent
			if err := jsonUnmarshal(m.Content, &c); err != nil || c.Name != "stdout" {
				r.err = fmt.Errorf("bad stream content %.80s", m.Content)
				continue
			}
			pending += c.Text
			for {
				i := strings.IndexByte(pending, '\n')
				if i < 0 {
					break
				}
				line := pending[:i]
				pending = pending[i+1:]
				if !strings.HasPrefix(line, "L") {
					sm := noticeRE.FindStringSubmatch(line)
					if sm == nil {
						r.err = fmt.Errorf("unexpected line %q", line)
						continue
					}
					v, _ := strconv.ParseFloat(sm[1], 64)
					r.dropped += v * map[string]float64{"bytes": 1, "kB": 1e3, "MB": 1e6, "GB": 1e9}[sm[2]]
					r.notices++
					gap = true
					continue
				}
				n, err := strconv.Atoi(strings.TrimPrefix(line, "L"))
				if err != nil || n <= last || (n != last+1 && !gap) {
					if r.err == nil {
						r.err = fmt.Errorf("line %q after line %d (gap announced: %v)", line, last, gap)
					}
				}
				last, gap = n, false
				r.lines++
			}
		}
	}()

	// Collect often, so that the heap measures what is live, not garbage.
	defer debug.SetGCPercent(debug.SetGCPercent(10))
	var peak atomic.Uint64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	go func() {
		defer close(sampled)
		for {
			select {
			case <-stop:
				return
			case <-time.After(10 * time.Millisecond):
			}
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			if ms.HeapAlloc > peak.Load() {
				peak.Store(ms.HeapAlloc)
			}
		}
	}()

	const lineLen, perCall, total = 16, 256, 100 << 20
	calls := total / (lineLen * perCall)
	buf := make([]byte, 0, lineLen*perCall)
	for i := range calls {
		buf = buf[:0]
		for j := range perCall {
			buf = append(buf, "L00000000000000"...)
			n := strconv.AppendInt(nil, int64(i*perCall+j), 10)
			copy(buf[len(buf)-len(n):], n)
			buf = append(buf, '\n')
		}
		s.PublishStream(parent, "stdout", string(buf))
	}
	s.Publish(parent, "status", map[string]any{"execution_state": "idle"})
	if !s.Flush(hang) {
		t.Fatal("Flush timed out")
	}
	var r result
	select {
	case r = <-done:
	case <-time.After(hang):
		t.Fatal("the subscriber never saw the final status")
	}
	close(stop)
	<-sampled
	if r.err != nil {
		t.Fatal(r.err)
	}
	grew := int64(peak.Load()) - int64(base)
	t.Logf("received %d lines, %d drop notices for %.1f MB; heap grew by %.1f MB at most", r.lines, r.notices, r.dropped/1e6, float64(grew)/1e6)
	if r.notices == 0 {
		t.Error("no drop notice arrived")
	}
	if grew > 48<<20 {
		t.Errorf("heap grew by %d MB while printing 100 MB: the queue is not bounded", grew>>20)
	}
	// Received plus dropped adds up to what was printed (notices round to
	// 0.1 units).
	got := float64(r.lines*lineLen) + r.dropped
	if d := got - total; d > 0.06e6*float64(r.notices)+1 || -d > 0.06e6*float64(r.notices)+1 {
		t.Errorf("received %d lines + %.0f bytes dropped = %.0f, want %d", r.lines, r.dropped, got, total)
	}
}

// TestIOPubStalledSubscriber checks that a subscriber that never reads
// blocks neither Publish nor memory: it is disconnected, and later
// subscribers are served.
func TestIOPubStalledSubscriber(t *testing.T) {
	defer func(d time.Duration) { stallTimeout = d }(stallTimeout)
	stallTimeout = 300 * time.Millisecond
	s, logs := startServer(t)
	subscribe(t, s) // never read
	text := strings.Repeat("x", 64<<10)
	// Print until the subscriber's socket buffers are full and it is dropped.
	waitFor(t, "the stalled subscriber to be dropped", func() bool {
		for range 16 {
			s.PublishStream(nil, "stderr", text)
		}
		return s.pub.subscribers() == 0
	})
	s.Publish(nil, "display_data", map[string]any{"data": map[string]any{"text/plain": "after"}})
	if !s.Flush(hang) {
		t.Fatal("Flush timed out: a stalled subscriber blocks IOPub")
	}
	for deadline := time.Now().Add(hang); !strings.Contains(logs.String(), "stopped reading"); {
		if time.Now().After(deadline) {
			t.Fatalf("disconnect not logged:\n%s", logs)
		}
		time.Sleep(5 * time.Millisecond)
	}
	// A fresh subscriber gets new messages.
	sub := subscribe(t, s)
	s.Publish(nil, "status", map[string]any{"execution_state": "idle"})
	if m := recvReply(t, sub); m.Header.MsgType != "status" || m.ParentHeader != nil {
		t.Errorf("got %s with parent %+v", m.Header.MsgType, m.ParentHeader)
	}
}

func TestIOPubMessageShape(t *testing.T) {
	s, _ := startServer(t)
	sub := subscribe(t, s)
	parent := &wire.Message{Header: wire.Header{MsgID: "req-1", MsgType: "execute_request", Session: "fe"}}
	s.Publish(parent, "execute_input", map[string]any{"code": "1+1", "execution_count": 1})
	s.Publish(nil, "status", nil)
	zm := recvMsg(t, sub)
	if !strings.HasPrefix(string(zm.Frames[0]), "kernel.") || !strings.HasSuffix(string(zm.Frames[0]), ".execute_input") {
		t.Errorf("topic = %q", zm.Frames[0])
	}
	m, err := testSigner(t).Decode(zm.Frames)
	if err != nil {
		t.Fatal(err)
	}
	if *m.ParentHeader != parent.Header || len(m.Metadata) != 0 || content(t, m)["code"] != "1+1" {
		t.Errorf("got %+v", m)
	}
	// Frames: topic, delimiter, signature, header, parent, metadata, content.
	if string(zm.Frames[5]) != "{}" {
		t.Errorf("metadata frame %s", zm.Frames[5])
	}
	st := recvMsg(t, sub)
	if string(st.Frames[4]) != "{}" || string(st.Frames[6]) != "{}" {
		t.Errorf("status without parent: parent %s content %s, want {} {}", st.Frames[4], st.Frames[6])
	}
}

// TestQueueSendsAtOnceOnlyWhenNothingIsAhead checks the publisher's direct
// send: a status published on an empty queue is on the socket when publish
// returns, and a message published while another is being sent waits its turn
// behind it, never beside it.
func TestQueueSendsAtOnceOnlyWhenNothingIsAhead(t *testing.T) {
	r := &recorder{}
	inSend := make(chan string, 4)
	release := make(chan struct{})
	var hold atomic.Bool
	q := newIOQueue(func(it *outItem, text []byte) {
		if hold.Load() {
			inSend <- it.msgType
			<-release
		}
		r.send(it, text)
	})
	defer q.close(time.Second)
	p := &wire.Header{MsgID: "cell"}

	q.publish("status", p, nil)
	if got := r.all(); len(got) != 1 || got[0] != "status" {
		t.Fatalf("after publish on an empty queue, sent = %v, want [status] already", got)
	}

	hold.Store(true)
	go q.publish("execute_input", p, nil) // sends directly, held inside send
	if got := <-inSend; got != "execute_input" {
		t.Fatalf("first held send = %q", got)
	}
	q.publishStream(p, "stdout", []byte("x"))
	q.publish("execute_result", p, nil) // must queue behind the stream
	select {
	case m := <-inSend:
		t.Fatalf("%q was sent while execute_input was still being sent", m)
	case <-time.After(50 * time.Millisecond):
	}
	hold.Store(false)
	close(release)
	if !q.flush(5 * time.Second) {
		t.Fatal("flush timed out")
	}
	want := []string{"status", "execute_input", "stream:stdout:x", "execute_result"}
	if got := r.all(); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("sent = %v, want %v", got, want)
	}
}
