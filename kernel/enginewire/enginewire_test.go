package enginewire

import (
	"io"
	"strings"
	"testing"
)

// TestReceiveAfterBigMessage: the messages after one past bigMessage, some
// already in the old decoder's buffer, arrive whole and in order.
func TestReceiveAfterBigMessage(t *testing.T) {
	pr, pw := io.Pipe()
	big := strings.Repeat("x", 3*bigMessage)
	go func() {
		c := NewConn(strings.NewReader(""), pw)
		c.Send(map[string]string{"v": "small"})
		c.Send(map[string]string{"v": big})
		for i := 0; i < 3; i++ {
			c.Send(map[string]string{"v": "after"})
		}
		pw.Close()
	}()
	c := NewConn(pr, io.Discard)
	for i, want := range []string{"small", big, "after", "after", "after"} {
		var m map[string]string
		if err := c.Receive(&m); err != nil || m["v"] != want {
			t.Fatalf("message %d: %v, %d bytes; want %d", i, err, len(m["v"]), len(want))
		}
	}
	var m map[string]string
	if err := c.Receive(&m); err != io.EOF {
		t.Errorf("after the last message: %v, want EOF", err)
	}
}
