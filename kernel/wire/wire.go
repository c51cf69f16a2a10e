// Package wire implements the Jupyter wire protocol: the framing of a message
// into ZeroMQ frames, and its HMAC-SHA256 signing and verification.
//
// A message on the wire is a list of frames:
//
//	identities... "<IDS|MSG>" signature header parent_header metadata content buffers...
//
// The signature is the lowercase hex HMAC of the four JSON frames that follow
// it, keyed with the key of the connection file. See
// https://jupyter-client.readthedocs.io/en/latest/messaging.html#the-wire-protocol.
package wire

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// ProtocolVersion is the Jupyter messaging protocol version gocl speaks.
const ProtocolVersion = "5.3"

// Delimiter separates the routing identities from the message proper.
const Delimiter = "<IDS|MSG>"

// dateLayout is RFC 3339 with microseconds in UTC, as jupyter_client writes it.
const dateLayout = "2006-01-02T15:04:05.000000Z"

// Header is a message header, and the parent_header of a reply.
type Header struct {
	MsgID    string `json:"msg_id"`
	Session  string `json:"session"`
	Username string `json:"username"`
	Date     string `json:"date"` // RFC 3339 with microseconds, UTC
	MsgType  string `json:"msg_type"`
	Version  string `json:"version"`
}

// Message is one Jupyter message, decoded.
type Message struct {
	Identities   [][]byte        // routing prefix frames before "<IDS|MSG>"
	Header       Header          //
	ParentHeader *Header         // nil encodes as {}; decodes {} as nil
	Metadata     map[string]any  // nil encodes as {} (never null)
	Content      json.RawMessage // nil encodes as {}
	Buffers      [][]byte        // extra binary frames after content
}

// NewMessage returns a message of type msgType in session, replying to parent
// (nil for none), with content marshaled to JSON. Its header has a fresh random
// msg_id, the current date and ProtocolVersion. content must marshal to a JSON
// object; nil means {}.
func NewMessage(msgType, session string, parent *Header, content any) (*Message, error) {
	raw, err := marshalObject(content)
	if err != nil {
		return nil, fmt.Errorf("wire: content of %s: %w", msgType, err)
	}
	m := &Message{
		Header: Header{
			MsgID:    NewID(),
			Session:  session,
			Username: "gocl",
			Date:     time.Now().UTC().Format(dateLayout),
			MsgType:  msgType,
			Version:  ProtocolVersion,
		},
		Content: raw,
	}
	if parent != nil {
		p := *parent
		m.ParentHeader = &p
	}
	return m, nil
}

// NewID returns a random UUID version 4 in its 36-character text form, read
// from crypto/rand. It is used for message and session ids.
func NewID() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		// crypto/rand never fails on supported platforms (Go 1.24+ panics
		// itself rather than returning an error).
		panic("wire: crypto/rand failed: " + err.Error())
	}
	b[6] = b[6]&0x0f | 0x40 // version 4
	b[8] = b[8]&0x3f | 0x80 // RFC 4122 variant
	var s [36]byte
	hex.Encode(s[0:8], b[0:4])
	s[8] = '-'
	hex.Encode(s[9:13], b[4:6])
	s[13] = '-'
	hex.Encode(s[14:18], b[6:8])
	s[18] = '-'
	hex.Encode(s[19:23], b[8:10])
	s[23] = '-'
	hex.Encode(s[24:], b[10:])
	return string(s[:])
}

// marshalObject marshals v and checks that the result is a JSON object.
func marshalObject(v any) (json.RawMessage, error) {
	if v == nil {
		return json.RawMessage("{}"), nil
	}
	if raw, ok := v.(json.RawMessage); ok && raw == nil {
		return json.RawMessage("{}"), nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	if !isObject(b) {
		return nil, fmt.Errorf("must be a JSON object, got %.40s", b)
	}
	return b, nil
}

// isObject reports whether b, valid JSON, is an object.
func isObject(b []byte) bool {
	b = bytes.TrimLeft(b, " \t\r\n")
	return len(b) > 0 && b[0] == '{'
}

// DecodeError is returned by Signer.Decode for a message that cannot be
// accepted. Reason says what was wrong in words fit for a log line.
type DecodeError struct {
	Reason string
	Err    error // underlying error, if any
}

func (e *DecodeError) Error() string {
	if e.Err != nil {
		return "wire: " + e.Reason + ": " + e.Err.Error()
	}
	return "wire: " + e.Reason
}

func (e *DecodeError) Unwrap() error { return e.Err }

// ErrBadSignature is wrapped by the DecodeError of a message whose HMAC does
// not match: sent with another key, or tampered with.
var ErrBadSignature = errors.New("signature does not match the connection key")
