package transport

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"sync/atomic"

	"github.com/seed43a1e1ab/gocl/kernel/wire"
)

// sigCheck follows the Jupyter messages arriving on one signed connection
// and checks each one's HMAC while its bytes stream past, so that a message
// not signed with the key is refused before it is read whole wherever the
// framing allows:
//
//	identities... "<IDS|MSG>" signature header parent_header metadata content buffers...
//
// The signature comes first, and covers the four JSON frames that follow, so
// a message is known good or bad when its content frame ends, before its
// buffers (which may be large). Frames that cannot belong to a signed message
// (a routing frame longer than an identity, a signature that is not 64 hex
// digits, a message that ends before its content) doom it at once.
//
// A doomed or badly signed message of at most smallUnverified bytes is still
// handed on whole, so that Decode drops and logs it and the connection goes
// on (a front end with the wrong key gets told in the log, not disconnected);
// a larger one is refused and its connection closed, before zmq4 reads on.
type sigCheck struct {
	key    []byte
	mac    hash.Hash
	budget *unverifiedBudget // shared by the server's connections; nil: none
	closed atomic.Bool       // the connection is closing: stop waiting on budget
	held   uint64            // bytes reserved from budget for this message

	phase    int    // where in the message the next frame is
	routing  int    // frames before the delimiter so far
	jsonDone int    // JSON frames hashed so far
	capture  []byte // body of a short frame being kept (delimiter, signature)
	keep     bool   // the current frame is captured
	sig      []byte // the message's signature, lowercased
	bytes    uint64 // bytes of the message not verified so far
	doomed   bool   // the message cannot be valid
	verified bool   // the signature matched
}

const (
	phaseRouting = iota // identities, then the delimiter
	phaseSig            // the signature frame
	phaseJSON           // header, parent_header, metadata, content
	phaseBuffers        // after content: buffers
)

// smallUnverified is the most a doomed or badly signed message may hold and
// still be handed on (to be dropped by Decode with its reason logged).
const smallUnverified = 1 << 20

func newSigCheck(key string, budget *unverifiedBudget) *sigCheck {
	if key == "" {
		return nil
	}
	return &sigCheck{key: []byte(key), mac: hmac.New(sha256.New, []byte(key)), capture: make([]byte, 0, 64), budget: budget}
}

// settle gives back what this message reserved from the budget.
func (c *sigCheck) settle() {
	if c.budget != nil {
		c.budget.release(c.held)
	}
	c.held = 0
}

// close gives up the budget for good: the connection is closing.
func (c *sigCheck) close() {
	if c == nil || c.budget == nil {
		return
	}
	c.closed.Store(true)
	c.budget.wake()
}

// frame is told each frame header: its size, and whether more follow.
func (c *sigCheck) frame(size uint64, more bool) error {
	if !c.verified {
		c.bytes += size
	}
	c.keep = false
	switch c.phase {
	case phaseRouting:
		c.routing++
		switch {
		case size > maxIdentity:
			c.doomed = true
		case c.routing > maxRoutingFrames:
			c.doomed = true
		case size == uint64(len(wire.Delimiter)):
			c.keep = true
		}
	case phaseSig:
		if size == 64 {
			c.keep = true
		} else {
			c.doomed = true
		}
	case phaseJSON:
		if c.jsonDone < 2 && size > maxHeaderFrame {
			return violatef("a message header of %d bytes, above the limit of %d", size, maxHeaderFrame)
		}
		if !more && c.jsonDone < 3 {
			c.doomed = true // ends before its content
		}
		if size > budgetFrame && !c.doomed && c.budget != nil {
			if !c.budget.acquire(size, c.held, &c.closed) {
				return violatef("connection closed while waiting to read a large unverified frame")
			}
			c.held += size
		}
	}
	if c.phase == phaseSig && !more {
		c.doomed = true
	}
	if c.doomed && c.bytes > smallUnverified {
		return &violation{reason: fmt.Sprintf("an unsigned or badly signed message of more than %d bytes", c.bytes), held: c.bytes - size}
	}
	c.capture = c.capture[:0]
	return nil
}

// data is told the bytes of the current frame as they pass; last says that
// they end the frame, more that another frame of the message follows.
func (c *sigCheck) data(b []byte, last, more bool) error {
	if c.keep {
		c.capture = append(c.capture, b...)
	}
	if c.phase == phaseJSON && !c.doomed {
		c.mac.Write(b)
	}
	if !last {
		return nil
	}
	switch c.phase {
	case phaseRouting:
		if c.keep && string(c.capture) == wire.Delimiter {
			c.phase = phaseSig
		}
	case phaseSig:
		c.sig = append(c.sig[:0], c.capture...)
		for i, ch := range c.sig {
			if 'A' <= ch && ch <= 'F' {
				c.sig[i] = ch + 'a' - 'A'
			}
		}
		c.mac.Reset()
		c.phase = phaseJSON
		c.jsonDone = 0
	case phaseJSON:
		c.jsonDone++
		if c.jsonDone == 4 {
			c.phase = phaseBuffers
			if !c.doomed {
				var sum [sha256.Size]byte
				var want [2 * sha256.Size]byte
				hex.Encode(want[:], c.mac.Sum(sum[:0]))
				c.settle()
				if hmac.Equal(want[:], c.sig) {
					c.verified = true
				} else {
					c.doomed = true
					if c.bytes > smallUnverified {
						return &violation{reason: fmt.Sprintf("a message of %d bytes whose signature does not match the key", c.bytes), held: c.bytes}
					}
				}
			}
		}
	}
	if !more {
		c.reset()
	}
	return nil
}

func (c *sigCheck) reset() {
	c.settle()
	c.phase, c.routing, c.jsonDone = phaseRouting, 0, 0
	c.bytes, c.doomed, c.verified, c.keep = 0, false, false, false
	c.capture = c.capture[:0]
}
