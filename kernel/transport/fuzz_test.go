package transport

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"net"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"
	"github.com/go-zeromq/zmq4/security/null"

	"github.com/seed43a1e1ab/gocl/kernel/wire"
)

// The fuzz targets of the ZMTP layer under zmq4: the handshake screening,
// the frame checks, and the streaming signature check against
// wire.Signer.Decode. Their seed corpora (f.Add and testdata/fuzz) run with
// go test; `go test -fuzz FuzzZMTPStream ./kernel/transport/` explores.

// fuzzConn is a net.Conn that reads a fixed byte string and discards writes.
type fuzzConn struct {
	r *bytes.Reader
}

func (c *fuzzConn) Read(p []byte) (int, error)       { return c.r.Read(p) }
func (c *fuzzConn) Write(p []byte) (int, error)      { return len(p), nil }
func (c *fuzzConn) Close() error                     { return nil }
func (c *fuzzConn) LocalAddr() net.Addr              { return &net.TCPAddr{} }
func (c *fuzzConn) RemoteAddr() net.Addr             { return &net.TCPAddr{} }
func (c *fuzzConn) SetDeadline(time.Time) error      { return nil }
func (c *fuzzConn) SetReadDeadline(time.Time) error  { return nil }
func (c *fuzzConn) SetWriteDeadline(time.Time) error { return nil }

const fuzzKey = "fuzz-key"

// readyFrame is a READY command as socketType with identity.
func readyFrame(socketType, identity string) []byte {
	body := append([]byte{5}, "READY"...)
	for _, kv := range [][2]string{{"Socket-Type", socketType}, {"Identity", identity}} {
		body = append(body, byte(len(kv[0])))
		body = append(body, kv[0]...)
		body = binary.BigEndian.AppendUint32(body, uint32(len(kv[1])))
		body = append(body, kv[1]...)
	}
	return append([]byte{flagCommand, byte(len(body))}, body...)
}

// FuzzHandshake: whatever a peer opens with, screening it neither panics
// nor lets through a handshake that zmq4 then chokes on.
func FuzzHandshake(f *testing.F) {
	f.Add(append(append([]byte(nil), zmtpGreeting...), readyFrame("DEALER", "id")...))
	f.Add(append(append([]byte(nil), zmtpGreeting...), readyFrame("SUB", "")...))
	f.Add(zmtpGreeting[:10])
	f.Add(append(append([]byte(nil), zmtpGreeting...), binary.BigEndian.AppendUint64([]byte{flagCommand | flagLong}, 1<<62)...))
	f.Add([]byte("GET / HTTP/1.1\r\n\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c := newMsgConn(&fuzzConn{r: bytes.NewReader(data)}, frameLimits{smallFrame, smallMessage}, nil)
		if _, err := screenHandshake(c, routerPeers); err != nil {
			return
		}
		// Screened: zmq4's own handshake reads only what is buffered, and
		// must neither panic nor refuse.
		if _, err := zmq4.Open(c, null.Security(), zmq4.Router, zmq4.SocketIdentity("k"), true, nil); err != nil {
			t.Fatalf("zmq4 refused a screened handshake: %v", err)
		}
	})
}

// FuzzZMTPStream: after a valid handshake, any byte string reaches zmq4 only
// as frames and messages within the limits, and never panics.
func FuzzZMTPStream(f *testing.F) {
	f.Add([]byte{0x00, 0x03, 'a', 'b', 'c'})
	f.Add(binary.BigEndian.AppendUint64([]byte{flagLong}, 1<<62))
	f.Add(binary.BigEndian.AppendUint64([]byte{flagLong}, 1<<40))
	f.Add(binary.BigEndian.AppendUint64([]byte{flagMore | flagLong}, 70000))
	f.Add([]byte{flagCommand, 4, 4, 'P', 'I', 'N'})
	f.Add([]byte{0x80, 0})
	f.Add(append(frameBytes([]byte(wire.Delimiter), true), frameBytes(bytes.Repeat([]byte("a"), 64), false)...))
	f.Fuzz(func(t *testing.T, data []byte) {
		stream := append(append(append([]byte(nil), zmtpGreeting...), readyFrame("DEALER", "")...), data...)
		c := newMsgConn(&fuzzConn{r: bytes.NewReader(stream)}, frameLimits{smallFrame, smallMessage}, newSigCheck(fuzzKey, newUnverifiedBudget(defaultBudget)))
		if _, err := screenHandshake(c, routerPeers); err != nil {
			t.Fatalf("a valid handshake was refused: %v", err)
		}
		zc, err := zmq4.Open(c, null.Security(), zmq4.Router, zmq4.SocketIdentity("k"), true, nil)
		if err != nil {
			t.Fatalf("zmq4 refused a screened handshake: %v", err)
		}
		for range 1000 {
			m, err := zc.RecvMsg()
			if err != nil {
				return
			}
			total := 0
			for _, fr := range m.Frames {
				if len(fr) > smallFrame {
					t.Fatalf("a frame of %d bytes passed the limit of %d", len(fr), smallFrame)
				}
				total += len(fr)
			}
			if total > smallMessage {
				t.Fatalf("a message of %d bytes passed the limit of %d", total, smallMessage)
			}
		}
	})
}

// splitFuzzFrames cuts b into frames, each a 2-byte big-endian length and
// its bytes.
func splitFuzzFrames(b []byte) [][]byte {
	var frames [][]byte
	for len(b) >= 2 {
		n := min(int(binary.BigEndian.Uint16(b)), len(b)-2)
		frames = append(frames, b[2:2+n])
		b = b[2+n:]
	}
	return frames
}

// FuzzSignedStream: the streaming signature check never refuses a message
// that wire.Signer.Decode accepts, and delivers it to zmq4 unchanged. With
// sign, the input's signature frame is replaced by the right one.
func FuzzSignedStream(f *testing.F) {
	s, _ := wire.NewSigner("hmac-sha256", fuzzKey)
	m, _ := wire.NewMessage("execute_request", "sess", nil, map[string]any{"code": "x := 1"})
	m.Identities = [][]byte{[]byte("peer")}
	m.Buffers = [][]byte{[]byte("buf")}
	good, _ := s.Encode(m)
	join := func(frames [][]byte) []byte {
		var b []byte
		for _, fr := range frames {
			b = binary.BigEndian.AppendUint16(b, uint16(len(fr)))
			b = append(b, fr...)
		}
		return b
	}
	f.Add(join(good), false)
	f.Add(join(good), true)
	f.Add(join(good[:5]), true)
	f.Add(join(good[1:]), false)
	f.Add(join([][]byte{[]byte(wire.Delimiter), []byte("short sig"), {}, {}, {}, {}}), false)
	f.Fuzz(func(t *testing.T, data []byte, sign bool) {
		frames := splitFuzzFrames(data)
		if len(frames) == 0 || len(frames) > 64 {
			return
		}
		if d := bytes.Index(bytes.Join(frames, []byte{0}), []byte(wire.Delimiter)); sign && d >= 0 {
			for i, fr := range frames {
				if string(fr) == wire.Delimiter && i+5 < len(frames) {
					mac := hmac.New(sha256.New, []byte(fuzzKey))
					for _, p := range frames[i+2 : i+6] {
						mac.Write(p)
					}
					frames[i+1] = []byte(hex.EncodeToString(mac.Sum(nil)))
					break
				}
			}
		}
		var stream []byte
		stream = append(append(stream, zmtpGreeting...), readyFrame("DEALER", "")...)
		for i, fr := range frames {
			stream = append(stream, frameBytes(fr, i < len(frames)-1)...)
		}
		c := newMsgConn(&fuzzConn{r: bytes.NewReader(stream)}, frameLimits{DefaultMaxFrame, DefaultMaxMessage}, newSigCheck(fuzzKey, newUnverifiedBudget(defaultBudget)))
		if _, err := screenHandshake(c, routerPeers); err != nil {
			t.Fatal(err)
		}
		zc, err := zmq4.Open(c, null.Security(), zmq4.Router, zmq4.SocketIdentity("k"), true, nil)
		if err != nil {
			t.Fatal(err)
		}
		got, err := zc.RecvMsg()
		_, decErr := s.Decode(frames)
		if decErr != nil {
			return // not a valid message: delivered or refused, either is right
		}
		if err != nil {
			t.Fatalf("a message that Decode accepts was refused: %v", err)
		}
		if len(got.Frames) != len(frames) {
			t.Fatalf("%d frames delivered, %d sent", len(got.Frames), len(frames))
		}
		for i := range frames {
			if !bytes.Equal(got.Frames[i], frames[i]) {
				t.Fatalf("frame %d changed", i)
			}
		}
	})
}
