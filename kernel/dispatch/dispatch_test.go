package dispatch

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/seed43a1e1ab/gocl/kernel/display"
	"github.com/seed43a1e1ab/gocl/kernel/engine"
	"github.com/seed43a1e1ab/gocl/kernel/transport"
	"github.com/seed43a1e1ab/gocl/kernel/wire"
)

// fakeTransport records what the dispatcher sends.
type fakeTransport struct {
	shell, control, stdin chan *wire.Message
	mu                    sync.Mutex
	sent                  []sent
	published             []string
	order                 []string // "flush" and the msg_type of each Send, in order
	onSend                func(msgType string, content map[string]any)
}

type sent struct {
	ch      transport.Channel
	msgType string
	content map[string]any
}

func newFakeTransport() *fakeTransport {
	return &fakeTransport{shell: make(chan *wire.Message, 8), control: make(chan *wire.Message, 8), stdin: make(chan *wire.Message, 8)}
}

func (f *fakeTransport) Shell() <-chan *wire.Message   { return f.shell }
func (f *fakeTransport) Control() <-chan *wire.Message { return f.control }
func (f *fakeTransport) Stdin() <-chan *wire.Message   { return f.stdin }
func (f *fakeTransport) Flush(time.Duration) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.order = append(f.order, "flush")
	return true
}
func (f *fakeTransport) Publish(parent *wire.Message, msgType string, content any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.published = append(f.published, msgType)
}
func (f *fakeTransport) Send(ch transport.Channel, parent *wire.Message, msgType string, content any, md map[string]any) error {
	raw, _ := json.Marshal(content)
	var c map[string]any
	json.Unmarshal(raw, &c)
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sent = append(f.sent, sent{ch, msgType, c})
	f.order = append(f.order, msgType)
	if f.onSend != nil {
		f.onSend(msgType, c)
	}
	return nil
}

func (f *fakeTransport) waitSent(t *testing.T, n int) []sent {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		f.mu.Lock()
		if len(f.sent) >= n {
			out := append([]sent(nil), f.sent...)
			f.mu.Unlock()
			return out
		}
		f.mu.Unlock()
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("fewer than %d replies", n)
	return nil
}

// panickyEngine fails in every way an engine can, by panicking.
type panickyEngine struct{}

func (panickyEngine) Execute(ctx context.Context, code string, sink engine.Sink) engine.Result {
	panic("execute exploded")
}
func (panickyEngine) Evaluate(ctx context.Context, expr string) (display.Bundle, *engine.CellError) {
	return nil, nil
}
func (panickyEngine) Close() error { return nil }
func (panickyEngine) Complete(code string, cursor int) ([]string, int, int, map[string]any) {
	panic("complete exploded")
}
func (panickyEngine) Inspect(code string, cursor, detail int) (map[string]any, bool) {
	return nil, false
}
func (panickyEngine) IsComplete(code string) (string, string) { return "complete", "" }

// runKernel serves a kernel with eng over a fake transport until the test
// ends.
func runKernel(t *testing.T, eng Engine) *fakeTransport {
	t.Helper()
	return runKernelOn(t, newFakeTransport(), eng)
}

// runKernelOn is runKernel on a fake transport the test has set up.
func runKernelOn(t *testing.T, ft *fakeTransport, eng Engine) *fakeTransport {
	t.Helper()
	k, err := New(Config{Transport: ft, NewEngine: func() (Engine, error) { return eng, nil },
		Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go k.Run(ctx)
	return ft
}

func request(t *testing.T, typ string, content any) *wire.Message {
	m, err := wire.NewMessage(typ, "test", nil, content)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestPanickingRequestsGetErrorRepliesAndTheKernelGoesOn(t *testing.T) {
	ft := runKernel(t, panickyEngine{})
	ft.shell <- request(t, "complete_request", map[string]any{"code": "fmt.", "cursor_pos": 4})
	ft.shell <- request(t, "execute_request", map[string]any{"code": "1"})
	ft.shell <- request(t, "kernel_info_request", map[string]any{})
	got := ft.waitSent(t, 3)
	want := []struct{ typ, status string }{{"complete_reply", "error"}, {"execute_reply", "error"}, {"kernel_info_reply", "ok"}}
	for i, w := range want {
		if got[i].msgType != w.typ || got[i].content["status"] != w.status {
			t.Errorf("reply %d = %s %v, want %s with status %s", i, got[i].msgType, got[i].content, w.typ, w.status)
		}
	}
	ft.mu.Lock()
	defer ft.mu.Unlock()
	statuses := 0
	for _, p := range ft.published {
		if p == "status" {
			statuses++
		}
	}
	if statuses < 7 { // starting, then busy and idle around each of the three
		t.Errorf("status messages: %d, want busy/idle around every request", statuses)
	}
}

// printingEngine prints, then returns a value.
type printingEngine struct{ panickyEngine }

func (printingEngine) Execute(ctx context.Context, code string, sink engine.Sink) engine.Result {
	sink.Stream("stdout", "hello\n")
	return engine.Result{Data: display.Bundle{"text/plain": "1"}}
}

// TestOutputIsFlushedBeforeTheReply checks that queued IOPub output is
// pushed out before execute_reply, as ipykernel does.
func TestOutputIsFlushedBeforeTheReply(t *testing.T) {
	ft := runKernel(t, printingEngine{})
	ft.shell <- request(t, "execute_request", map[string]any{"code": "1"})
	ft.waitSent(t, 1)
	ft.mu.Lock()
	defer ft.mu.Unlock()
	if len(ft.order) < 2 || ft.order[0] != "flush" || ft.order[1] != "execute_reply" {
		t.Errorf("order = %v, want a flush before execute_reply", ft.order)
	}
}

// failingEngine fails the cell "fail" and runs every other.
type failingEngine struct{ panickyEngine }

func (failingEngine) Execute(ctx context.Context, code string, sink engine.Sink) engine.Result {
	if code == "fail" {
		return engine.Result{Err: &engine.CellError{Name: "Failed", Value: "on purpose"}}
	}
	return engine.Result{Data: display.Bundle{"text/plain": code}}
}

// TestStopOnErrorAbortsOnlyWhatWasQueued checks both halves of stop_on_error:
// a cell queued behind a failing one is aborted, and a cell the client sends
// the moment it sees the error reply (the interrupt-then-run case, where a
// fast client beats the kernel's next step) runs.
func TestStopOnErrorAbortsOnlyWhatWasQueued(t *testing.T) {
	ft := newFakeTransport()
	var once sync.Once
	ft.onSend = func(msgType string, c map[string]any) {
		if msgType == "execute_reply" && c["status"] == "error" {
			once.Do(func() { ft.shell <- request(t, "execute_request", map[string]any{"code": "after"}) })
		}
	}
	ft.shell <- request(t, "execute_request", map[string]any{"code": "fail"})
	ft.shell <- request(t, "execute_request", map[string]any{"code": "queued"})
	runKernelOn(t, ft, failingEngine{})
	got := ft.waitSent(t, 3)
	want := []string{"error", "aborted", "ok"}
	for i, w := range want {
		if got[i].msgType != "execute_reply" || got[i].content["status"] != w {
			t.Errorf("reply %d = %s %v, want execute_reply with status %s", i, got[i].msgType, got[i].content, w)
		}
	}
}
