package dispatch

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seed43a1e1ab/gocl/kernel/cellio"
	"github.com/seed43a1e1ab/gocl/kernel/comm"
	"github.com/seed43a1e1ab/gocl/kernel/wire"
)

// commEngine is an engine with comms: each comm message it gets, it answers
// with a print and a comm_msg carrying metadata, or fails when told to.
type commEngine struct {
	mu  sync.Mutex
	got []comm.Message
}

func (e *commEngine) Execute(ctx context.Context, code string, sink cellio.Sink) cellio.Result {
	return cellio.Result{}
}
func (e *commEngine) Evaluate(ctx context.Context, expr string) (cellio.Bundle, *cellio.CellError) {
	return nil, nil
}
func (e *commEngine) Close() error { return nil }
func (e *commEngine) Comm(ctx context.Context, m comm.Message, sink cellio.Sink) cellio.Result {
	e.mu.Lock()
	e.got = append(e.got, m)
	e.mu.Unlock()
	if m.Data["fail"] == true {
		return cellio.Result{Err: &cellio.CellError{Name: "panic", Value: "callback exploded"}}
	}
	if m.Data["hang"] == true {
		<-ctx.Done() // until interrupted
		return cellio.Result{Err: &cellio.CellError{Name: "Interrupted", Value: "interrupted"}}
	}
	sink.Stream("stdout", "callback ran\n")
	sink.(cellio.CommSink).Comm(comm.Message{Type: comm.TypeMsg, CommID: m.CommID,
		Data: map[string]any{"method": "echo_update"}, Metadata: map[string]any{"version": "2.1.0"}})
	return cellio.Result{}
}
func (e *commEngine) CommInfo(target string) map[string]string {
	return map[string]string{"c1": "jupyter.widget"}
}

// extraTransport is a fake transport that can publish metadata.
type extraTransport struct{ *fakeTransport }

func (f *extraTransport) PublishWith(parent *wire.Message, msgType string, content any, md map[string]any, bufs [][]byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.published = append(f.published, msgType+"+metadata")
}

func (f *fakeTransport) publishedNow() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.published...)
}

// waitPublished waits until the last published message is the n-th idle.
func waitIdle(t *testing.T, f *fakeTransport, n int) []string {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		p := f.publishedNow()
		if strings.Count(strings.Join(p, " "), "status") >= 2*n+1 {
			return p
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("no %d idle statuses: %v", n, f.publishedNow())
	return nil
}

// TestCommMessagesRunBetweenBusyAndIdle: every comm message from the front
// end reaches the engine as plain data between busy and idle, its output and
// comm messages (with metadata) go out in between, and a failure is shown as
// an error, not swallowed.
func TestCommMessagesRunBetweenBusyAndIdle(t *testing.T) {
	eng := &commEngine{}
	ft := &extraTransport{fakeTransport: newFakeTransport()}
	k, err := New(Config{Transport: ft, NewEngine: func() (Engine, error) { return eng, nil },
		Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go k.Run(ctx)

	ft.shell <- request(t, "comm_open", map[string]any{"comm_id": "c1", "target_name": "jupyter.widget.control", "data": map[string]any{}})
	ft.shell <- request(t, "comm_msg", map[string]any{"comm_id": "c1", "data": map[string]any{"method": "update"}})
	ft.shell <- request(t, "comm_msg", map[string]any{"comm_id": "c1", "data": map[string]any{"fail": true}})
	ft.shell <- request(t, "comm_close", map[string]any{"comm_id": "c1", "data": map[string]any{}})
	got := waitIdle(t, ft.fakeTransport, 4)
	want := "status status stream comm_msg+metadata status " + // comm_open
		"status stream comm_msg+metadata status " + // comm_msg
		"status error status " + // the failing one
		"status stream comm_msg+metadata status" // comm_close
	if strings.Join(got, " ") != want {
		t.Errorf("published\n%s\nwant\n%s", strings.Join(got, " "), want)
	}
	eng.mu.Lock()
	if len(eng.got) != 4 || eng.got[0].Type != comm.TypeOpen || eng.got[0].TargetName != "jupyter.widget.control" ||
		eng.got[1].Data["method"] != "update" || eng.got[3].Type != comm.TypeClose {
		t.Errorf("the engine got %+v", eng.got)
	}
	eng.mu.Unlock()

	ft.shell <- request(t, "comm_info_request", map[string]any{"target_name": "jupyter.widget"})
	replies := ft.waitSent(t, 1)
	comms, _ := replies[0].content["comms"].(map[string]any)
	if replies[0].msgType != "comm_info_reply" || comms["c1"].(map[string]any)["target_name"] != "jupyter.widget" {
		t.Errorf("comm_info_reply %+v", replies[0])
	}

	// A callback that loops stops at an interrupt, as a cell does. The
	// interrupt_request's own busy and idle (control) may come before or
	// after the callback's, so the wait is for the callback's error and a
	// status after it, with both requests' busy and idle published.
	start := len(ft.publishedNow())
	ft.shell <- request(t, "comm_msg", map[string]any{"comm_id": "c1", "data": map[string]any{"hang": true}})
	time.Sleep(50 * time.Millisecond)
	ft.control <- request(t, "interrupt_request", map[string]any{})
	deadline := time.Now().Add(10 * time.Second)
	for {
		seg := ft.publishedNow()[start:]
		joined := strings.Join(seg, " ")
		if i := strings.Index(joined, "error"); i >= 0 && strings.Contains(joined[i:], "status") &&
			strings.Count(joined[:i], "status") >= 1 && strings.Count(joined, "status") >= 4 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("an interrupted callback published %v, want its error between busy and idle", seg)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestCommWithoutComms: an engine without comms closes every comm_open, as
// the messaging spec asks.
func TestCommWithoutComms(t *testing.T) {
	ft := runKernel(t, failingEngine{})
	ft.shell <- request(t, "comm_open", map[string]any{"comm_id": "c1", "target_name": "x", "data": map[string]any{}})
	got := waitIdle(t, ft, 1)
	if strings.Join(got, " ") != "status status comm_close status" {
		t.Errorf("published %v", got)
	}
}
