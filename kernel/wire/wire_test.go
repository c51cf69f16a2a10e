package wire

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"regexp"
	"strings"
	"testing"
	"time"
)

func mustSigner(t testing.TB, scheme, key string) *Signer {
	t.Helper()
	s, err := NewSigner(scheme, key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestNewSigner(t *testing.T) {
	for _, c := range []struct {
		scheme, key string
		ok          bool
	}{
		{"hmac-sha256", "k", true},
		{"", "", true},
		{"hmac-sha256", "", true},
		{"hmac-md5", "k", false},
		{"", "k", false},
	} {
		_, err := NewSigner(c.scheme, c.key)
		if (err == nil) != c.ok {
			t.Errorf("NewSigner(%q, %q) error = %v, want ok=%v", c.scheme, c.key, err, c.ok)
		}
	}
}

func TestNewMessage(t *testing.T) {
	parent := &Header{MsgID: "p1", MsgType: "execute_request", Session: "s"}
	m, err := NewMessage("execute_reply", "sess", parent, map[string]any{"status": "ok"})
	if err != nil {
		t.Fatal(err)
	}
	uuid := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	if !uuid.MatchString(m.Header.MsgID) {
		t.Errorf("msg_id %q is not a UUID4", m.Header.MsgID)
	}
	if m.Header.Version != ProtocolVersion || m.Header.Session != "sess" || m.Header.MsgType != "execute_reply" {
		t.Errorf("header = %+v", m.Header)
	}
	d, err := time.Parse(time.RFC3339Nano, m.Header.Date)
	if err != nil || time.Since(d) > time.Hour || !strings.HasSuffix(m.Header.Date, "Z") || len(m.Header.Date) != len(dateLayout) {
		t.Errorf("date %q: %v", m.Header.Date, err)
	}
	if m.ParentHeader == parent || *m.ParentHeader != *parent {
		t.Errorf("parent header not copied: %+v", m.ParentHeader)
	}
	if string(m.Content) != `{"status":"ok"}` {
		t.Errorf("content = %s", m.Content)
	}
	m2, _ := NewMessage("x", "s", nil, nil)
	if m2.Header.MsgID == m.Header.MsgID {
		t.Error("two messages share a msg_id")
	}
	if string(m2.Content) != "{}" {
		t.Errorf("nil content = %s, want {}", m2.Content)
	}
	if _, err := NewMessage("x", "s", nil, []int{1}); err == nil {
		t.Error("array content accepted")
	}
	if _, err := NewMessage("x", "s", nil, map[string]any{"f": func() {}}); err == nil {
		t.Error("unmarshalable content accepted")
	}
}

func TestEncodeLayoutAndSignature(t *testing.T) {
	s := mustSigner(t, "hmac-sha256", "secret")
	m := &Message{
		Identities: [][]byte{[]byte("id1"), []byte("id2")},
		Header:     Header{MsgID: "m", MsgType: "kernel_info_reply", Version: "5.3"},
		Content:    json.RawMessage(`{"a":1}`),
		Buffers:    [][]byte{{0, 1, 2}},
	}
	f, err := s.Encode(m)
	if err != nil {
		t.Fatal(err)
	}
	if len(f) != 2+1+1+4+1 {
		t.Fatalf("got %d frames", len(f))
	}
	if string(f[2]) != Delimiter || string(f[5]) != "{}" || string(f[6]) != "{}" || string(f[7]) != `{"a":1}` {
		t.Errorf("frames = %q", f)
	}
	mac := hmac.New(sha256.New, []byte("secret"))
	for _, p := range f[4:8] {
		mac.Write(p)
	}
	if want := hex.EncodeToString(mac.Sum(nil)); string(f[3]) != want {
		t.Errorf("signature %s, want %s", f[3], want)
	}
	var h Header
	if err := json.Unmarshal(f[4], &h); err != nil || h != m.Header {
		t.Errorf("header frame %s: %v", f[4], err)
	}

	// No key: empty signature, nothing verified.
	f, _ = mustSigner(t, "", "").Encode(m)
	if len(f[3]) != 0 {
		t.Errorf("unsigned signature = %q", f[3])
	}
}

func TestRoundTrip(t *testing.T) {
	s := mustSigner(t, "hmac-sha256", "k")
	parent := &Header{MsgID: "p", MsgType: "execute_request"}
	m, _ := NewMessage("stream", "s", parent, map[string]string{"name": "stdout", "text": "héllo <&>"})
	m.Identities = [][]byte{[]byte("peer")}
	m.Metadata = map[string]any{"x": 1.5}
	m.Buffers = [][]byte{[]byte("buf")}
	f, err := s.Encode(m)
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if msg := diff(m, got); msg != "" {
		t.Error(msg)
	}
}

func TestDecodeErrors(t *testing.T) {
	s := mustSigner(t, "hmac-sha256", "k")
	m, _ := NewMessage("execute_request", "s", nil, map[string]any{"code": "1"})
	good, _ := s.Encode(m)
	replace := func(i int, b string) [][]byte {
		f := append([][]byte(nil), good...)
		f[i] = []byte(b)
		return f
	}
	resign := func(f [][]byte) [][]byte {
		var parts [4][]byte
		copy(parts[:], f[2:6])
		f[1] = s.sign(parts)
		return f
	}
	cases := []struct {
		name   string
		frames [][]byte
		reason string
	}{
		{"empty", nil, "delimiter"},
		{"no delimiter", good[1:], "delimiter"},
		{"truncated", good[:5], "too few frames"},
		{"bad signature", replace(1, strings.Repeat("0", 64)), "bad signature"},
		{"empty signature", replace(1, ""), "bad signature"},
		{"tampered content", replace(5, `{"code":"2"}`), "bad signature"},
		{"bad header JSON", resign(replace(2, `{"msg_type":`)), "bad header"},
		{"header not object", resign(replace(2, `[]`)), "bad header"},
		{"no msg_type", resign(replace(2, `{"msg_id":"x"}`)), "msg_type"},
		{"bad parent", resign(replace(3, `{"msg_id":1}`)), "bad parent_header"},
		{"bad metadata", resign(replace(4, `"x"`)), "bad metadata"},
		{"content array", resign(replace(5, `[1]`)), "content"},
		{"content invalid", resign(replace(5, `{`)), "content"},
	}
	for _, c := range cases {
		_, err := s.Decode(c.frames)
		var de *DecodeError
		if !errors.As(err, &de) || !strings.Contains(err.Error(), c.reason) {
			t.Errorf("%s: error %v, want a DecodeError about %q", c.name, err, c.reason)
		}
	}
	_, err := s.Decode(replace(1, "00"))
	if !errors.Is(err, ErrBadSignature) {
		t.Errorf("bad signature error %v does not wrap ErrBadSignature", err)
	}
	// The same frames decode when nothing is signed.
	if _, err := mustSigner(t, "", "").Decode(replace(1, "junk")); err != nil {
		t.Errorf("unsigned decode: %v", err)
	}
	// Another key does not verify.
	if _, err := mustSigner(t, "hmac-sha256", "other").Decode(good); !errors.Is(err, ErrBadSignature) {
		t.Errorf("decode with the wrong key: %v", err)
	}
}

func TestDecodeEmptyParentIsNil(t *testing.T) {
	s := mustSigner(t, "", "")
	frames := [][]byte{[]byte(Delimiter), nil, []byte(`{"msg_type":"x"}`), []byte(` { } `), []byte(`null`), []byte(`{}`)}
	m, err := s.Decode(frames)
	if err != nil {
		t.Fatal(err)
	}
	if m.ParentHeader != nil || m.Identities != nil || m.Buffers != nil {
		t.Errorf("got %+v", m)
	}
	f, _ := s.Encode(m)
	if string(f[3]) != "{}" || string(f[4]) != "{}" {
		t.Errorf("re-encoded parent/metadata = %s %s, want {} {}", f[3], f[4])
	}
}

// diff describes how a and b differ, or returns "".
func diff(a, b *Message) string {
	var d []string
	eqFrames := func(x, y [][]byte) bool {
		if len(x) != len(y) {
			return false
		}
		for i := range x {
			if !bytes.Equal(x[i], y[i]) {
				return false
			}
		}
		return true
	}
	if !eqFrames(a.Identities, b.Identities) {
		d = append(d, "identities")
	}
	if a.Header != b.Header {
		d = append(d, "header")
	}
	if (a.ParentHeader == nil) != (b.ParentHeader == nil) || a.ParentHeader != nil && *a.ParentHeader != *b.ParentHeader {
		d = append(d, "parent_header")
	}
	ma, _ := json.Marshal(a.Metadata)
	mb, _ := json.Marshal(b.Metadata)
	if !bytes.Equal(ma, mb) || (a.Metadata == nil) != (b.Metadata == nil) {
		d = append(d, "metadata "+string(ma)+" vs "+string(mb))
	}
	if !bytes.Equal(a.Content, b.Content) {
		d = append(d, "content")
	}
	if !eqFrames(a.Buffers, b.Buffers) {
		d = append(d, "buffers")
	}
	if d == nil {
		return ""
	}
	return "messages differ in " + strings.Join(d, ", ")
}
