package supervisor

import (
	"io"
	"testing"
	"time"
)

// A pong that came while the supervisor was away is not silence, however
// long it was away; only time spent waiting for bytes counts.
func TestSilenceIsTheEngines(t *testing.T) {
	r, w := io.Pipe()
	h := &heardReader{r: r}
	ping := time.Now()
	go w.Write([]byte("pong"))
	buf := make([]byte, 8)
	if _, err := h.Read(buf); err != nil {
		t.Fatal(err)
	}
	// The supervisor is away (not reading) for a minute.
	if d := h.silence(ping, time.Now().Add(time.Minute)); d != 0 {
		t.Errorf("silence after the pong came = %v, want 0", d)
	}
	// A later ping, and the supervisor away: the wait is its own.
	ping2 := time.Now().Add(time.Millisecond)
	if d := h.silence(ping2, ping2.Add(time.Minute)); d != 0 {
		t.Errorf("silence while the supervisor did not read = %v, want 0", d)
	}
	// Now it waits for bytes that do not come.
	done := make(chan struct{})
	go func() { h.Read(buf); close(done) }()
	for h.waiting.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	if d := h.silence(ping2, time.Now().Add(time.Minute)); d < 59*time.Second {
		t.Errorf("silence while waiting for a frozen engine = %v, want about a minute", d)
	}
	w.Close()
	<-done
}
