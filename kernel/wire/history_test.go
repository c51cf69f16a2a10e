package wire

import (
	"fmt"
	"testing"
)

func TestSignatureHistoryRecognizesReplays(t *testing.T) {
	h := NewSignatureHistory(4)
	if h.Seen([]byte("a")) {
		t.Fatal("a fresh signature was taken for a replay")
	}
	if !h.Seen([]byte("a")) {
		t.Fatal("a replayed signature was not recognized")
	}
	if h.Seen(nil) || h.Seen(nil) {
		t.Fatal("an empty signature (no key) was taken for a replay")
	}
	// Bounded: after size newer signatures, the oldest is forgotten.
	for i := range 4 {
		if h.Seen(fmt.Appendf(nil, "s%d", i)) {
			t.Fatalf("s%d taken for a replay", i)
		}
	}
	if h.Seen([]byte("a")) {
		t.Error("the history kept more than its size")
	}
	if len(h.seen) != 4 {
		t.Errorf("history holds %d signatures, want 4", len(h.seen))
	}
}

func TestSignatureOf(t *testing.T) {
	frames := [][]byte{[]byte("id"), []byte(Delimiter), []byte("sig"), []byte("{}")}
	if got := SignatureOf(frames); string(got) != "sig" {
		t.Errorf("SignatureOf = %q", got)
	}
	if got := SignatureOf(frames[:2]); got != nil {
		t.Errorf("SignatureOf without a signature frame = %q", got)
	}
}
