package transport

import (
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/seed43a1e1ab/gocl/kernel/wire"
)

// A client that stops reading its replies, with megabytes of them for it:
// sending them returns at once, and another client's reply does not wait
// for it (zmq4's ROUTER holds one lock across each write: it waited for
// the stall timeout).
func TestNonReadingRouterPeerHoldsUpNobody(t *testing.T) {
	s, _ := startServer(t)
	stalled := rawZMTP(t, s.Info().ShellPort, "DEALER", "stalled")
	stalled.(*net.TCPConn).SetReadBuffer(4096)
	m, _ := wire.NewMessage("kernel_info_request", "stalled", nil, map[string]any{})
	frames, _ := testSigner(t).Encode(m)
	var raw []byte
	for i, f := range frames {
		raw = append(raw, frameBytes(f, i < len(frames)-1)...)
	}
	stalled.Write(raw)
	req := next(t, s.Shell())
	big := map[string]any{"text": strings.Repeat("r", 1<<20)}
	t0 := time.Now()
	for range 24 { // far more than the sockets' buffers hold
		if err := s.Send(Shell, req, "kernel_info_reply", big, nil); err != nil {
			t.Fatal(err)
		}
	}
	// Generous: the stall timeout is 10 s.
	if d := time.Since(t0); d > 3*time.Second {
		t.Errorf("sending to a client that does not read took %v", d)
	}
	other := dealer(t, "other", s.Info().ShellPort)
	sent := request(t, other, "kernel_info_request", nil)
	got := next(t, s.Shell())
	t1 := time.Now()
	if err := s.Send(Shell, got, "kernel_info_reply", nil, nil); err != nil {
		t.Fatal(err)
	}
	if r := recvReply(t, other); r.ParentHeader.MsgID != sent.Header.MsgID {
		t.Errorf("reply to %s", r.ParentHeader.MsgID)
	}
	if d := time.Since(t1); d > 3*time.Second {
		t.Errorf("the other client's reply took %v", d)
	}
}

// Subscribers that read, but slowly (about 1.3 MB/s), cost only
// themselves: the publisher does not wait for them (five cost no more than
// one), and a reading subscriber gets every message.
func TestSlowSubscriberIsNotWaitedFor(t *testing.T) {
	s, logs := startServer(t)
	done := make(chan struct{})
	defer close(done)
	for i := range 5 {
		slow := rawZMTP(t, s.Info().IOPubPort, "SUB", "")
		slow.Write([]byte{0, 1, 1}) // subscribe to everything
		waitFor(t, "the subscription", func() bool { return s.pub.subscribers() > i })
		go func() {
			buf := make([]byte, 64<<10)
			for {
				select {
				case <-done:
					return
				case <-time.After(50 * time.Millisecond):
				}
				slow.SetReadDeadline(time.Now().Add(time.Second))
				io.ReadFull(slow, buf)
			}
		}()
	}
	sub := subscribe(t, s)
	got := make(chan int)
	go func() {
		n := 0
		for {
			m := recvReply(t, sub)
			if m.Header.MsgType == "status" {
				got <- n
				return
			}
			n++
		}
	}()
	big := map[string]any{"data": map[string]any{"text/plain": strings.Repeat("d", 5<<20)}}
	const n = 12 // 60 MB: 46 s at the slow one's pace
	t0 := time.Now()
	var slowest time.Duration
	for range n {
		t1 := time.Now()
		s.Publish(nil, "display_data", big)
		slowest = max(slowest, time.Since(t1))
	}
	s.Publish(nil, "status", map[string]any{"execution_state": "idle"})
	if r := <-got; r != n {
		t.Errorf("the reading subscriber got %d of %d displays", r, n)
	}
	// Generous bounds: making room for a 5 MB display at the slow one's
	// pace takes about 4 s, and the whole of it 46 s.
	if slowest > 2*time.Second {
		t.Errorf("one Publish waited %v: the publisher waited for the slow subscriber", slowest)
	}
	if d := time.Since(t0); d > 20*time.Second {
		t.Errorf("60 MB took %v: the publisher waited for the slow subscriber", d)
	}
	t.Logf("60 MB in %v, slowest Publish %v", time.Since(t0), slowest)
	if !strings.Contains(logs.String(), "too slowly") {
		t.Errorf("the drops are not logged:\n%s", logs)
	}
}
