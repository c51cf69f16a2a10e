package wire

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
)

// Signer encodes and decodes messages, signing and verifying them with the key
// of a connection file. A Signer is safe for concurrent use.
type Signer struct {
	scheme string
	key    []byte // empty: messages are neither signed nor verified
}

// NewSigner returns a Signer for the signature_scheme and key of a connection
// file. The only scheme is "hmac-sha256"; an empty key disables signing, as
// the messaging spec allows, and then the scheme may be empty too.
func NewSigner(scheme, key string) (*Signer, error) {
	switch {
	case key == "":
		return &Signer{scheme: scheme}, nil
	case scheme == "hmac-sha256":
		return &Signer{scheme: scheme, key: []byte(key)}, nil
	case scheme == "":
		return nil, fmt.Errorf("wire: the connection has a key but no signature_scheme: set \"signature_scheme\": \"hmac-sha256\"")
	default:
		return nil, fmt.Errorf("wire: signature scheme %q is not supported: use \"hmac-sha256\"", scheme)
	}
}

// Signs reports whether messages are signed (the key is not empty).
func (s *Signer) Signs() bool { return len(s.key) > 0 }

// sign returns the hex signature of the four JSON frames, or "" with no key.
func (s *Signer) sign(parts [4][]byte) []byte {
	if len(s.key) == 0 {
		return []byte{}
	}
	var h hash.Hash = hmac.New(sha256.New, s.key)
	for _, p := range parts {
		h.Write(p)
	}
	sum := h.Sum(nil)
	out := make([]byte, hex.EncodedLen(len(sum)))
	hex.Encode(out, sum)
	return out
}

// Encode returns the frames of m: its identities, "<IDS|MSG>", the signature,
// the header, parent header, metadata and content as JSON, then its buffers.
// A nil ParentHeader, Metadata or Content is written as {}.
func (s *Signer) Encode(m *Message) ([][]byte, error) {
	header, err := json.Marshal(&m.Header)
	if err != nil {
		return nil, fmt.Errorf("wire: encode header: %w", err)
	}
	parent := []byte("{}")
	if m.ParentHeader != nil {
		if parent, err = json.Marshal(m.ParentHeader); err != nil {
			return nil, fmt.Errorf("wire: encode parent_header: %w", err)
		}
	}
	metadata := []byte("{}")
	if m.Metadata != nil {
		if metadata, err = json.Marshal(m.Metadata); err != nil {
			return nil, fmt.Errorf("wire: encode metadata of %s: %w", m.Header.MsgType, err)
		}
	}
	content := []byte("{}")
	if m.Content != nil {
		if !json.Valid(m.Content) || !isObject(m.Content) {
			return nil, fmt.Errorf("wire: content of %s is not a JSON object: %.40q", m.Header.MsgType, m.Content)
		}
		content = m.Content
	}
	parts := [4][]byte{header, parent, metadata, content}
	frames := make([][]byte, 0, len(m.Identities)+6+len(m.Buffers))
	frames = append(frames, m.Identities...)
	frames = append(frames, []byte(Delimiter), s.sign(parts))
	frames = append(frames, parts[:]...)
	frames = append(frames, m.Buffers...)
	return frames, nil
}

// Decode parses and verifies the frames of one message. It fails with a
// *DecodeError when the delimiter is missing, frames are missing, the
// signature does not match (compared in constant time) or a JSON frame is not
// a JSON object. With an empty key the signature is not checked.
//
// A decoded message always has a non-nil Metadata. It shares memory with
// frames.
func (s *Signer) Decode(frames [][]byte) (*Message, error) {
	delim := -1
	for i, f := range frames {
		if string(f) == Delimiter {
			delim = i
			break
		}
	}
	if delim < 0 {
		return nil, &DecodeError{Reason: fmt.Sprintf("no %q delimiter among %d frames", Delimiter, len(frames))}
	}
	rest := frames[delim+1:]
	if len(rest) < 5 {
		return nil, &DecodeError{Reason: fmt.Sprintf("too few frames: %d after the delimiter, want signature, header, parent_header, metadata and content", len(rest))}
	}
	parts := [4][]byte{rest[1], rest[2], rest[3], rest[4]}
	if len(s.key) > 0 && !hmac.Equal(s.sign(parts), bytes.ToLower(rest[0])) {
		return nil, &DecodeError{Reason: "bad signature", Err: ErrBadSignature}
	}

	m := &Message{}
	if delim > 0 {
		m.Identities = frames[:delim:delim]
	}
	if err := decodeObject(parts[0], &m.Header); err != nil {
		return nil, &DecodeError{Reason: "bad header", Err: err}
	}
	if m.Header.MsgType == "" {
		return nil, &DecodeError{Reason: "header has no msg_type"}
	}
	var parent Header
	if !isEmptyObject(parts[1]) {
		if err := decodeObject(parts[1], &parent); err != nil {
			return nil, &DecodeError{Reason: "bad parent_header", Err: err}
		}
		if parent != (Header{}) {
			m.ParentHeader = &parent
		}
	}
	if err := decodeObject(parts[2], &m.Metadata); err != nil {
		return nil, &DecodeError{Reason: "bad metadata", Err: err}
	}
	if m.Metadata == nil { // null: same as {}
		m.Metadata = map[string]any{}
	}
	if !json.Valid(parts[3]) || !isObject(parts[3]) {
		return nil, &DecodeError{Reason: fmt.Sprintf("content is not a JSON object: %.40q", parts[3])}
	}
	m.Content = json.RawMessage(parts[3])
	if len(rest) > 5 {
		m.Buffers = rest[5:]
	}
	return m, nil
}

// decodeObject unmarshals b, which must be a JSON object (or null), into v.
func decodeObject(b []byte, v any) error {
	if !json.Valid(b) {
		return fmt.Errorf("invalid JSON: %.40q", b)
	}
	if !isObject(b) && string(bytes.TrimSpace(b)) != "null" {
		return fmt.Errorf("not a JSON object: %.40q", b)
	}
	return json.Unmarshal(b, v)
}

// isEmptyObject reports whether b is {} or null, possibly with white space.
func isEmptyObject(b []byte) bool {
	var v map[string]json.RawMessage
	return json.Valid(b) && json.Unmarshal(b, &v) == nil && len(v) == 0
}
