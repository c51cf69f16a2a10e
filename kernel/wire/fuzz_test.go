package wire

import (
	"bytes"
	"encoding/binary"
	"testing"
)

// fuzzKey is the key of the signer that FuzzDecode uses; the seed corpus is
// signed with it.
const fuzzKey = "fuzz-key"

// joinFrames packs frames into one byte string: each frame is a 4-byte
// big-endian length followed by its bytes. splitFrames undoes it.
func joinFrames(frames [][]byte) []byte {
	var b []byte
	for _, f := range frames {
		b = binary.BigEndian.AppendUint32(b, uint32(len(f)))
		b = append(b, f...)
	}
	return b
}

func splitFrames(b []byte) [][]byte {
	var frames [][]byte
	for len(b) >= 4 {
		n := int(binary.BigEndian.Uint32(b))
		b = b[4:]
		if n > len(b) {
			n = len(b)
		}
		frames = append(frames, b[:n])
		b = b[n:]
	}
	return frames
}

// FuzzDecode checks that Decode never panics, and that whatever it accepts
// encodes and decodes again to the same message. The input is a list of frames
// packed by joinFrames; signed selects a keyed or an unkeyed signer.
func FuzzDecode(f *testing.F) {
	s, err := NewSigner("hmac-sha256", fuzzKey)
	if err != nil {
		f.Fatal(err)
	}
	m, _ := NewMessage("execute_request", "sess", &Header{MsgID: "p", MsgType: "x"}, map[string]any{"code": "print(1)"})
	m.Identities = [][]byte{[]byte("peer")}
	good, _ := s.Encode(m)
	f.Add(joinFrames(good), true)
	f.Add(joinFrames(good), false)
	f.Add(joinFrames(good[:4]), true)
	f.Add([]byte{}, true)
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 1}, true)

	s0, _ := NewSigner("", "")
	f.Fuzz(func(t *testing.T, data []byte, signed bool) {
		signer := s0
		if signed {
			signer = s
		}
		frames := splitFrames(data)
		m, err := signer.Decode(frames)
		if err != nil {
			if m != nil {
				t.Fatal("Decode returned a message and an error")
			}
			return
		}
		out, err := signer.Encode(m)
		if err != nil {
			t.Fatalf("decoded message does not encode: %v", err)
		}
		m2, err := signer.Decode(out)
		if err != nil {
			t.Fatalf("re-encoded message does not decode: %v\nframes %q", err, out)
		}
		if d := diff(m, m2); d != "" {
			t.Fatalf("%s\nfirst  %+v\nsecond %+v", d, m, m2)
		}
		out2, _ := signer.Encode(m2)
		if !bytes.Equal(joinFrames(out), joinFrames(out2)) {
			t.Fatalf("encoding is not stable:\n%q\n%q", out, out2)
		}
	})
}
