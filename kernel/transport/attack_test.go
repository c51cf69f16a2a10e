package transport

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"

	"github.com/seed43a1e1ab/gocl/kernel/wire"
)

// rawZMTP connects to port and completes a ZMTP handshake by hand as
// socketType, as an attacker without a ZeroMQ library would.
func rawZMTP(t *testing.T, port int, socketType, identity string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	body := append([]byte{5}, "READY"...)
	for _, kv := range [][2]string{{"Socket-Type", socketType}, {"Identity", identity}} {
		body = append(body, byte(len(kv[0])))
		body = append(body, kv[0]...)
		body = binary.BigEndian.AppendUint32(body, uint32(len(kv[1])))
		body = append(body, kv[1]...)
	}
	c.Write(append(append([]byte(nil), zmtpGreeting...), append([]byte{flagCommand, byte(len(body))}, body...)...))
	c.SetReadDeadline(time.Now().Add(hang))
	if _, err := io.ReadFull(c, make([]byte, zmtpGreetingLen)); err != nil {
		t.Fatalf("no greeting from the server: %v", err)
	}
	return c
}

// closedByServer reports whether the server closes c within d.
func closedByServer(c net.Conn, d time.Duration) bool {
	c.SetReadDeadline(time.Now().Add(d))
	_, err := io.Copy(io.Discard, c)
	ne, ok := err.(net.Error)
	return !ok || !ne.Timeout()
}

func TestFrameHeaderOverTheLimitClosesBeforeAllocating(t *testing.T) {
	s, logs := startServer(t)
	for _, port := range []int{s.Info().ShellPort, s.Info().HBPort, s.Info().IOPubPort} {
		typ := "DEALER"
		if port == s.Info().IOPubPort {
			typ = "SUB"
		}
		c := rawZMTP(t, port, typ, "")
		c.Write(binary.BigEndian.AppendUint64([]byte{flagLong}, 1<<62))
		if !closedByServer(c, hang) {
			t.Fatalf("port %d kept a peer that declared a 2^62-byte frame", port)
		}
	}
	if !strings.Contains(logs.String(), "above the limit") {
		t.Errorf("not logged:\n%s", logs)
	}
	c := dealer(t, "after", s.Info().ShellPort)
	req := request(t, c, "kernel_info_request", nil)
	if got := next(t, s.Shell()); got.Header.MsgID != req.Header.MsgID {
		t.Errorf("got %s", got.Header.MsgType)
	}
}

func TestLimitsAreSettable(t *testing.T) {
	t.Setenv("GOCL_MAX_FRAME", "128K")
	t.Setenv("GOCL_MAX_MESSAGE", "1M")
	lim, err := DefaultLimits()
	if err != nil || lim.MaxFrame != 128<<10 || lim.MaxMessage != 1<<20 {
		t.Fatalf("DefaultLimits = %+v, %v", lim, err)
	}
	t.Setenv("GOCL_MAX_FRAME", "lots")
	if _, err := DefaultLimits(); err == nil || !strings.Contains(err.Error(), "GOCL_MAX_FRAME") {
		t.Errorf("a bad GOCL_MAX_FRAME gave %v", err)
	}
	t.Setenv("GOCL_MAX_FRAME", "2M")
	if _, err := DefaultLimits(); err == nil {
		t.Errorf("a frame limit above the message limit was accepted")
	}

	logs := &logBuffer{}
	info := ConnectionInfo{Transport: "tcp", IP: "127.0.0.1", SignatureScheme: "hmac-sha256", Key: testKey}
	s, err := ListenLimits(info, slog.New(slog.NewTextHandler(logs, nil)), Limits{MaxFrame: 128 << 10, MaxMessage: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	c := dealer(t, "client", s.Info().ShellPort)
	big, _ := wire.NewMessage("execute_request", "s", nil, map[string]any{"code": strings.Repeat("x", 200<<10)})
	frames, _ := testSigner(t).Encode(big)
	c.Send(zmq4.NewMsgFrom(frames...)) // may fail: the server hangs up mid-message
	deadline := time.Now().Add(hang)
	for !strings.Contains(logs.String(), "above the limit of 131072") {
		if time.Now().After(deadline) {
			t.Fatalf("a 200 KB frame passed a 128 KB limit:\n%s", logs)
		}
		time.Sleep(5 * time.Millisecond)
	}
	select {
	case m := <-s.Shell():
		t.Fatalf("the message over the limit arrived: %s", m.Header.MsgType)
	default:
	}
}

// TestUnsignedMessageIsRefusedBeforeItIsReadWhole feeds a badly signed
// message with a large buffer through a msgConn: the reader must refuse it
// when its content ends, before the buffer.
func TestUnsignedMessageIsRefusedBeforeItIsReadWhole(t *testing.T) {
	m, _ := wire.NewMessage("execute_request", "s", nil, map[string]any{"code": strings.Repeat("y", 2<<20)})
	m.Buffers = [][]byte{bytes.Repeat([]byte("z"), 8<<20)}
	frames, _ := testSigner(t).Encode(m)
	frames[1] = bytes.Repeat([]byte("0"), 64) // forged signature
	stream := append([]byte(nil), zmtpGreeting...)
	for i, f := range frames {
		stream = append(stream, frameBytes(f, i < len(frames)-1)...)
	}
	c := newMsgConn(&countingConn{toRead: stream}, frameLimits{DefaultMaxFrame, DefaultMaxMessage}, newSigCheck(testKey, nil))
	n, err := io.Copy(io.Discard, c)
	if _, ok := err.(*violation); !ok {
		t.Fatalf("read %d bytes, then %v; want a violation", n, err)
	}
	if n > int64(len(stream))-8<<20 {
		t.Errorf("%d of %d bytes were handed on: the buffer was read", n, len(stream))
	}
	// The same message, signed, passes whole.
	frames, _ = testSigner(t).Encode(m)
	stream = append([]byte(nil), zmtpGreeting...)
	for i, f := range frames {
		stream = append(stream, frameBytes(f, i < len(frames)-1)...)
	}
	c = newMsgConn(&countingConn{toRead: stream}, frameLimits{DefaultMaxFrame, DefaultMaxMessage}, newSigCheck(testKey, nil))
	if n, err := io.Copy(io.Discard, c); err != nil || n != int64(len(stream)) {
		t.Errorf("a signed message: %d of %d bytes, %v", n, len(stream), err)
	}
}

func frameBytes(f []byte, more bool) []byte {
	var flags byte
	if more {
		flags = flagMore
	}
	var b []byte
	if len(f) > 255 {
		b = binary.BigEndian.AppendUint64([]byte{flags | flagLong}, uint64(len(f)))
	} else {
		b = []byte{flags, byte(len(f))}
	}
	return append(b, f...)
}

func TestSilentHandshakeTimesOut(t *testing.T) {
	defer func(d time.Duration) { handshakeTimeout = d }(handshakeTimeout)
	handshakeTimeout = 300 * time.Millisecond
	s, logs := startServer(t)
	for _, port := range []int{s.Info().ShellPort, s.Info().IOPubPort} {
		c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port))
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		c.Write(zmtpGreeting) // the greeting, then nothing
		if !closedByServer(c, hang) {
			t.Errorf("port %d kept a silent peer", port)
		}
	}
	if !strings.Contains(logs.String(), "handshake failed") {
		t.Errorf("not logged:\n%s", logs)
	}
}

func TestDuplicateIdentityIsRefused(t *testing.T) {
	s, logs := startServer(t)
	a := dealer(t, "victim", s.Info().ShellPort)
	thief := rawZMTP(t, s.Info().ShellPort, "DEALER", "victim")
	if !closedByServer(thief, hang) {
		t.Fatal("a second connection with a connected identity was kept")
	}
	if !strings.Contains(logs.String(), "already connected") {
		t.Errorf("not logged:\n%s", logs)
	}
	req := request(t, a, "kernel_info_request", nil)
	got := next(t, s.Shell())
	if err := s.Send(Shell, got, "kernel_info_reply", nil, nil); err != nil {
		t.Fatal(err)
	}
	if r := recvReply(t, a); r.ParentHeader.MsgID != req.Header.MsgID {
		t.Errorf("reply to %s", r.ParentHeader.MsgID)
	}
	// Once the victim has gone, its identity may connect again.
	a.Close()
	waitFor(t, "the identity to be released", func() bool {
		c := rawZMTP(t, s.Info().ShellPort, "DEALER", "victim")
		return !closedByServer(c, 200*time.Millisecond)
	})
}

func TestReplayedMessageIsDropped(t *testing.T) {
	s, logs := startServer(t)
	c := dealer(t, "client", s.Info().ShellPort)
	m, _ := wire.NewMessage("execute_request", "x", nil, map[string]any{"code": "once"})
	frames, _ := testSigner(t).Encode(m)
	for range 3 {
		c.Send(zmq4.NewMsgFrom(frames...))
	}
	request(t, c, "execute_request", map[string]any{"code": "next"})
	if got := next(t, s.Shell()); got.Header.MsgID != m.Header.MsgID {
		t.Fatalf("first is %s", got.Content)
	}
	if got := next(t, s.Shell()); content(t, got)["code"] != "next" {
		t.Fatalf("a replay came through: %s", got.Content)
	}
	if n := logs.count("a replay"); n != 2 {
		t.Errorf("%d replays logged, want 2:\n%s", n, logs)
	}
}

func TestEmptyKeyIsWarnedAbout(t *testing.T) {
	logs := &logBuffer{}
	s, err := Listen(ConnectionInfo{Transport: "tcp", IP: "127.0.0.1"}, slog.New(slog.NewTextHandler(logs, nil)))
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if !strings.Contains(logs.String(), "level=WARN") || !strings.Contains(logs.String(), "empty key") {
		t.Errorf("no warning:\n%s", logs)
	}
}

// TestNonReadingSubscriberHoldsUpNobody: a subscriber that never reads loses
// its own messages; a reading one gets them all, and Publish never waits
// long for the other.
func TestNonReadingSubscriberHoldsUpNobody(t *testing.T) {
	s, logs := startServer(t)
	before := s.pub.subscribers()
	stalled := rawZMTP(t, s.Info().IOPubPort, "SUB", "")
	stalled.(*net.TCPConn).SetReadBuffer(4096)
	stalled.Write([]byte{0, 1, 1}) // subscribe to everything
	waitFor(t, "the subscription", func() bool { return s.pub.subscribers() > before })
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
	big := map[string]any{"data": map[string]any{"text/plain": strings.Repeat("d", 100<<10)}}
	const n = 300 // 30 MB: more than the stalled one's queue and socket buffers
	var slowest time.Duration
	for range n {
		t0 := time.Now()
		s.Publish(nil, "display_data", big)
		slowest = max(slowest, time.Since(t0))
	}
	s.Publish(nil, "status", map[string]any{"execution_state": "idle"})
	if r := <-got; r != n {
		t.Errorf("the reading subscriber got %d of %d displays", r, n)
	}
	if !strings.Contains(logs.String(), "not reading") {
		t.Errorf("the drops are not logged:\n%s", logs)
	}
	t.Logf("slowest Publish: %v (pubPatience %v)", slowest, pubPatience)
}

func TestIOPubQueueIsBoundedForEveryKind(t *testing.T) {
	release := make(chan struct{})
	var sent int
	q := newIOQueue(func(it *outItem, text []byte) {
		<-release
		sent++
	})
	defer close(release)
	item := json_(strings.Repeat("p", 1<<20))
	// The first goes to the (blocked) socket directly; then the queue
	// holds maxHeld bytes; the next publish must wait.
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range maxHeld>>20 + 3 {
			q.publish("display_data", nil, item)
		}
	}()
	select {
	case <-done:
		t.Fatalf("%d MB of displays were queued behind a blocked socket: the queue is not bounded", maxHeld>>20+3)
	case <-time.After(300 * time.Millisecond):
	}
	q.mu.Lock()
	held := q.held
	q.mu.Unlock()
	if held > maxHeld {
		t.Errorf("%d bytes held, above %d", held, maxHeld)
	}
	for range maxHeld>>20 + 3 {
		release <- struct{}{}
	}
	<-done
}

// TestUnverifiedBytesAreBoundedAcrossConnections: two peers each start a
// badly signed message with a 40 MB content frame; the second waits, unread,
// until the first is gone, so that together they never hold more than the
// budget (64 MB).
func TestUnverifiedBytesAreBoundedAcrossConnections(t *testing.T) {
	s, _ := startServer(t)
	start := func() net.Conn {
		c := rawZMTP(t, s.Info().ShellPort, "DEALER", "")
		var b []byte
		for _, f := range [][]byte{[]byte(wire.Delimiter), bytes.Repeat([]byte("0"), 64), []byte("{}"), []byte("{}"), []byte("{}")} {
			b = append(b, frameBytes(f, true)...)
		}
		b = binary.BigEndian.AppendUint64(append(b, flagLong), 40<<20)
		c.Write(append(b, bytes.Repeat([]byte("x"), 1<<20)...))
		return c
	}
	a := start()
	waitFor(t, "the first peer's reservation", func() bool { return s.budget.reserved() == 40<<20 })
	b := start()
	time.Sleep(300 * time.Millisecond)
	if got := s.budget.reserved(); got != 40<<20 {
		t.Fatalf("%d MB reserved with two 40 MB frames in flight and a 64 MB budget", got>>20)
	}
	a.Close()
	waitFor(t, "the second peer's turn", func() bool { return s.budget.reserved() == 40<<20 && !closedByServer(b, 10*time.Millisecond) })
	b.Write(bytes.Repeat([]byte("x"), 39<<20))
	if !closedByServer(b, hang) {
		t.Fatal("the badly signed 40 MB message was not refused")
	}
	waitFor(t, "the budget to be given back", func() bool { return s.budget.reserved() == 0 })
}

func TestIOPubBoundCountsBuffers(t *testing.T) {
	x := withExtras{content: json.RawMessage(`{}`), buffers: [][]byte{make([]byte, 1000), make([]byte, 24)}}
	if n := contentSize(x); n != 1026 {
		t.Errorf("contentSize of a message with 1024 bytes of buffers = %d, want 1026", n)
	}
}
