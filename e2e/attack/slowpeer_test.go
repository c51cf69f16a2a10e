package attack

import (
	"encoding/json"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/seed43a1e1ab/gocl/kernel/wire"
)

// A keyless raw SUB socket on IOPub that reads about 0.6 MB/s, a little at a
// time, while a cell shows twelve 5 MB displays (issue 23). It used to slow
// every client to its pace (30 MB of displays in 41 s), and the supervisor,
// back from a display that took seconds to publish, found the ping tick and
// the pong both ready and, half the time, killed the live engine as frozen:
// the cell failed and every value was lost. A slow subscriber must cost
// only itself.
func TestSlowSubscriberCostsOnlyItself(t *testing.T) {
	k := startKernel(t, kernelOptions{})
	c := k.connect(t)
	if r := c.execute(t, `keep := 42`); r["status"] != "ok" {
		t.Fatalf("cell failed: %v", r)
	}
	p, err := dialRaw(k.addr("iopub"), "SUB", "")
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	p.Conn.(*net.TCPConn).SetReadBuffer(16 << 10)
	p.Write(message([]byte{1}))
	stop := make(chan struct{})
	defer close(stop)
	go func() { // 8 kB every 13 ms: 0.6 MB/s
		buf := make([]byte, 8<<10)
		for {
			select {
			case <-stop:
				return
			case <-time.After(13 * time.Millisecond):
			}
			p.SetReadDeadline(time.Now().Add(time.Second))
			if _, err := io.ReadFull(p, buf); err != nil && !isTimeout(err) {
				return
			}
		}
	}()
	time.Sleep(200 * time.Millisecond) // subscription in

	before := c.count("display_data")
	t0 := time.Now()
	id, err := c.send(c.shell, "execute_request", map[string]any{"code": `b := make([]byte, 5<<20)
for i := range b { b[i] = 'x' }
s := string(b)
for i := 0; i < 12; i++ { display.Text(s) }`, "silent": false, "store_history": true, "user_expressions": map[string]any{}, "allow_stdin": false})
	if err != nil {
		t.Fatal(err)
	}
	m, err := c.await(c.shell, id, t0.Add(2*hang))
	if err != nil {
		t.Fatalf("the display cell: %v after %v (the kernel waits for the slow subscriber)", err, time.Since(t0).Round(time.Millisecond))
	}
	took := time.Since(t0)
	var r map[string]any
	json.Unmarshal(m.Content, &r)
	if r["status"] != "ok" {
		t.Fatalf("the display cell failed (a live engine killed as frozen?): %v: %v", r["ename"], r["evalue"])
	}
	if n := c.count("display_data") - before; n != 12 {
		t.Errorf("the reading client got %d of 12 displays", n)
	}
	// 60 MB at 0.6 MB/s is 100 s: a bound far below it proves that nobody
	// waited for the slow subscriber. Not a measure of speed.
	if took > 25*time.Second {
		t.Errorf("the cell took %v: the kernel waited for the slow subscriber", took.Round(time.Millisecond))
	}
	if r := c.execute(t, `if keep != 42 { panic(keep) }`); r["status"] != "ok" {
		t.Errorf("the session's values were lost: %v: %v", r["ename"], r["evalue"])
	}
	if strings.Contains(k.stderr.String(), "frozen") {
		t.Errorf("the engine was taken for frozen")
	}
	t.Logf("twelve 5 MB displays with a 0.6 MB/s subscriber: %v", took.Round(time.Millisecond))
}

func isTimeout(err error) bool {
	ne, ok := err.(net.Error)
	return ok && ne.Timeout()
}

// A keyed client that stops reading its shell replies, with megabytes of
// them queued for it: another client's replies must not wait for it (they
// waited 10 s, the stall timeout, because zmq4's ROUTER holds one lock
// across each write).
func TestNonReadingClientHoldsUpNobody(t *testing.T) {
	k := startKernel(t, kernelOptions{})
	c := k.connect(t)
	if r := c.execute(t, `big := strings.Repeat("y", 1<<20)`); r["status"] != "ok" {
		t.Fatalf("cell failed: %v", r)
	}
	p, err := dialRaw(k.addr("shell"), "DEALER", "stalled-client")
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	p.Conn.(*net.TCPConn).SetReadBuffer(4096)
	// Each reply carries 1 MB (the user expression's value); 24 of them is
	// far more than the sockets' buffers hold.
	const n = 24
	var ids []string
	for range n {
		m, _ := wire.NewMessage("execute_request", "stalled-client", nil, map[string]any{"code": "", "silent": true,
			"store_history": false, "user_expressions": map[string]any{"v": "big"}, "allow_stdin": false})
		frames, _ := k.signer.Encode(m)
		ids = append(ids, m.Header.MsgID)
		if _, err := p.Write(message(frames...)); err != nil {
			t.Fatal(err)
		}
	}
	// Let the kernel serve them, so that its writes to the stalled client
	// are blocked; then the other client asks.
	time.Sleep(2 * time.Second)
	var slowest time.Duration
	for range 5 {
		d, err := c.kernelInfo(c.shell, 3*time.Second)
		if err != nil {
			t.Fatalf("the other client waited for the stalled one: %v", err)
		}
		slowest = max(slowest, d)
	}
	id, err := c.send(c.shell, "execute_request", map[string]any{"code": "1+1", "silent": false,
		"store_history": true, "user_expressions": map[string]any{}, "allow_stdin": false})
	if err != nil {
		t.Fatal(err)
	}
	m, err := c.await(c.shell, id, time.Now().Add(3*time.Second))
	if err != nil {
		t.Fatalf("the other client's execute waited for the stalled one: %v", err)
	}
	var content map[string]any
	json.Unmarshal(m.Content, &content)
	if content["status"] != "ok" {
		t.Errorf("execute: %v", content)
	}
	t.Logf("slowest kernel_info while %d MB of replies wait for a client that does not read: %v", n, slowest.Round(time.Millisecond))
}
