package wire

import "sync"

// DefaultHistorySize is how many signatures a SignatureHistory remembers by
// default: jupyter_client's Session.digest_history_size.
const DefaultHistorySize = 1 << 16

// SignatureHistory remembers the signatures of the last messages accepted, so
// that a message sent again as it was (a replay by someone who saw it, not
// knowing the key) is recognized, as jupyter_client's Session does with its
// digest_history. It forgets the oldest signature once it holds size of them.
// It is safe for concurrent use.
type SignatureHistory struct {
	mu   sync.Mutex
	size int
	seen map[string]struct{}
	ring []string // signatures in the order seen, as a ring of len size once full
	next int
}

// NewSignatureHistory returns a history of at most size signatures (size < 1
// means DefaultHistorySize). Its memory grows with use: allocating (and
// clearing) room for all of them at once cost a kernel's start several
// milliseconds before it bound its sockets.
func NewSignatureHistory(size int) *SignatureHistory {
	if size < 1 {
		size = DefaultHistorySize
	}
	return &SignatureHistory{size: size, seen: map[string]struct{}{}}
}

// Seen reports whether sig was seen before, and remembers it when it was not.
// An empty signature (an unsigned connection) is never a replay.
func (h *SignatureHistory) Seen(sig []byte) bool {
	if len(sig) == 0 {
		return false
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.seen[string(sig)]; ok {
		return true
	}
	s := string(sig)
	if len(h.ring) < h.size {
		h.ring = append(h.ring, s)
	} else {
		delete(h.seen, h.ring[h.next])
		h.ring[h.next] = s
		h.next = (h.next + 1) % len(h.ring)
	}
	h.seen[s] = struct{}{}
	return false
}

// SignatureOf returns the signature frame of a message's frames (the frame
// after the delimiter), or nil when there is none.
func SignatureOf(frames [][]byte) []byte {
	for i, f := range frames {
		if string(f) == Delimiter {
			if i+1 < len(frames) {
				return frames[i+1]
			}
			return nil
		}
	}
	return nil
}
