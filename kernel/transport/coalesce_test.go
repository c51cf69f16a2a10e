package transport

import (
	"bytes"
	"context"
	"io"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"
)

// countingConn records each Write, and counts the Reads of what it is given
// to read.
type countingConn struct {
	net.Conn
	mu     sync.Mutex
	writes [][]byte
	toRead []byte
	reads  int
}

func (c *countingConn) Read(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.reads++
	if len(c.toRead) == 0 {
		return 0, io.EOF
	}
	n := copy(p, c.toRead)
	c.toRead = c.toRead[n:]
	return n, nil
}

func (c *countingConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.writes = append(c.writes, append([]byte(nil), p...))
	return len(p), nil
}

func (c *countingConn) snapshot() [][]byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([][]byte(nil), c.writes...)
}

func TestMsgConnWritesOneMessageAtOnce(t *testing.T) {
	raw := &countingConn{}
	c := newMsgConn(raw, frameLimits{DefaultMaxFrame, DefaultMaxMessage}, nil)
	greeting := bytes.Repeat([]byte{0xff}, zmtpGreetingLen)
	c.Write(greeting)
	// A command (READY), then a three-frame message, each written as zmq4
	// does: header and body apart; the last frame is long (8-byte size).
	c.Write([]byte{0x04, 3})
	c.Write([]byte("RDY"))
	c.Write([]byte{0x01, 2})
	c.Write([]byte("id"))
	c.Write([]byte{0x01, 0})
	long := bytes.Repeat([]byte("x"), 300)
	c.Write([]byte{0x02, 0, 0, 0, 0, 0, 0, 1, 44})
	c.Write(long[:100])
	c.Write(long[100:])
	w := raw.snapshot()
	if len(w) != 3 {
		t.Fatalf("%d writes, want 3 (greeting, command, message): %q", len(w), w)
	}
	if !bytes.Equal(w[0], greeting) || !bytes.Equal(w[1], []byte("\x04\x03RDY")) {
		t.Errorf("greeting or command changed: %q", w[:2])
	}
	want := append([]byte("\x01\x02id\x01\x00\x02\x00\x00\x00\x00\x00\x00\x01\x2c"), long...)
	if !bytes.Equal(w[2], want) {
		t.Errorf("message bytes changed:\n got %q\nwant %q", w[2], want)
	}
}

// TestMsgConnReadsThroughABuffer checks that a message that has arrived whole
// is taken from the connection with one read, however zmq4 asks for it.
func TestMsgConnReadsThroughABuffer(t *testing.T) {
	var msg []byte
	for i := 0; i < 7; i++ {
		msg = append(msg, 0x01, 10)
		msg = append(msg, bytes.Repeat([]byte{byte('a' + i)}, 10)...)
	}
	raw := &countingConn{toRead: append(append([]byte(nil), zmtpGreeting...), msg...)}
	c := newMsgConn(raw, frameLimits{DefaultMaxFrame, DefaultMaxMessage}, nil)
	greeting := make([]byte, zmtpGreetingLen)
	if _, err := io.ReadFull(c, greeting); err != nil || !bytes.Equal(greeting, zmtpGreeting) {
		t.Fatalf("greeting read as %q, %v", greeting, err)
	}
	var got []byte
	buf := make([]byte, 2)
	for len(got) < len(msg) { // header, then body, as zmq4 reads
		n, err := io.ReadFull(c, buf[:2])
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, buf[:n]...)
		body := make([]byte, buf[1])
		if _, err := io.ReadFull(c, body); err != nil {
			t.Fatal(err)
		}
		got = append(got, body...)
	}
	if !bytes.Equal(got, msg) {
		t.Fatalf("read %q, want %q", got, msg)
	}
	if raw.reads != 1 {
		t.Errorf("%d reads from the connection for one message, want 1", raw.reads)
	}
}

func TestMsgConnFlushesWhatItCannotFollow(t *testing.T) {
	raw := &countingConn{}
	c := newMsgConn(raw, frameLimits{DefaultMaxFrame, DefaultMaxMessage}, nil)
	c.Write(bytes.Repeat([]byte{0}, zmtpGreetingLen))
	c.Write([]byte{0x01, 200, 'a'}) // a frame whose body never completes
	deadline := time.Now().Add(5 * time.Second)
	for len(raw.snapshot()) < 2 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if w := raw.snapshot(); len(w) != 2 || !bytes.Equal(w[1], []byte{0x01, 200, 'a'}) {
		t.Fatalf("held bytes were not written by the timer: %q", w)
	}
}

// TestMsgConnWithZmq4 runs real zmq4 round trips through a guarded
// listener, whose connections are msgConns: the framing it follows is
// zmq4's own.
func TestMsgConnWithZmq4(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	r := zmq4.NewRouter(ctx, zmq4.WithID(zmq4.SocketIdentity("router")))
	defer r.Close()
	ep, err := guardedEndpoint("tcp://127.0.0.1:0", testGuard())
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Listen(ep); err != nil {
		t.Fatal(err)
	}
	addr := r.Addr().String()
	d := zmq4.NewDealer(ctx, zmq4.WithID(zmq4.SocketIdentity("dealer")))
	defer d.Close()
	if err := d.Dial("tcp://" + addr); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 20; i++ {
		if err := d.Send(zmq4.NewMsgFrom([]byte("a"), bytes.Repeat([]byte("b"), 300), []byte("c"))); err != nil {
			t.Fatal(err)
		}
		m, err := r.Recv()
		if err != nil {
			t.Fatal(err)
		}
		if err := r.Send(m); err != nil {
			t.Fatal(err)
		}
		back, err := d.Recv()
		if err != nil {
			t.Fatal(err)
		}
		if len(back.Frames) != 3 || len(back.Frames[1]) != 300 {
			t.Fatalf("round trip %d changed the message: %d frames", i, len(back.Frames))
		}
	}
}

func (c *countingConn) Close() error { return nil }
