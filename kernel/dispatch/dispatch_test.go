package dispatch

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seed43a1e1ab/gocl/kernel/cellio"
	"github.com/seed43a1e1ab/gocl/kernel/history"
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
func (f *fakeTransport) PublishStream(parent *wire.Message, name, text string) {
	f.Publish(parent, "stream", nil)
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

func (panickyEngine) Execute(ctx context.Context, code string, sink cellio.Sink) cellio.Result {
	panic("execute exploded")
}
func (panickyEngine) Evaluate(ctx context.Context, expr string) (cellio.Bundle, *cellio.CellError) {
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

func (printingEngine) Execute(ctx context.Context, code string, sink cellio.Sink) cellio.Result {
	sink.Stream("stdout", "hello\n")
	return cellio.Result{Data: cellio.Bundle{"text/plain": "1"}}
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

func (failingEngine) Execute(ctx context.Context, code string, sink cellio.Sink) cellio.Result {
	if code == "fail" {
		return cellio.Result{Err: &cellio.CellError{Name: "Failed", Value: "on purpose"}}
	}
	return cellio.Result{Data: cellio.Bundle{"text/plain": code}}
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

// orderHistory is a History that notes what the transport had done when a
// cell was saved.
type orderHistory struct {
	ft    *fakeTransport
	mu    sync.Mutex
	saved []string // per Add: the IOPub messages published before it, joined
	lines []history.Entry
}

func (h *orderHistory) Session() int { return 1 }
func (h *orderHistory) Add(line int, input, output string) error {
	h.ft.mu.Lock()
	before := strings.Join(h.ft.published, ",")
	h.ft.mu.Unlock()
	h.mu.Lock()
	defer h.mu.Unlock()
	h.saved = append(h.saved, before)
	h.lines = append(h.lines, history.Entry{Session: 1, Line: line, Input: input})
	return nil
}
func (h *orderHistory) Tail(n int, output bool) []history.Entry {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]history.Entry(nil), h.lines...)
}
func (h *orderHistory) Range(session, start, stop int, output bool) []history.Entry {
	return h.Tail(0, output)
}
func (h *orderHistory) Search(pattern string, n int, unique bool, output bool) []history.Entry {
	return h.Tail(n, output)
}

// TestHistoryIsSavedAfterIdleAndBeforeTheNextRequest checks that saving a
// cell to the history file does not hold the client up (it happens after the
// idle status) and is still done before the next request is served.
func TestHistoryIsSavedAfterIdleAndBeforeTheNextRequest(t *testing.T) {
	ft := newFakeTransport()
	h := &orderHistory{ft: ft}
	k, err := New(Config{Transport: ft, NewEngine: func() (Engine, error) { return failingEngine{}, nil },
		History: h, Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ft.shell <- request(t, "execute_request", map[string]any{"code": "x := 1"})
	ft.shell <- request(t, "history_request", map[string]any{"hist_access_type": "tail", "n": 10})
	go k.Run(ctx)
	got := ft.waitSent(t, 2)
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.saved) != 1 {
		t.Fatalf("history saved %d times, want 1", len(h.saved))
	}
	// starting, busy, execute_input, execute_result, idle: all out before the save.
	if want := "status,status,execute_input,execute_result,status"; h.saved[0] != want {
		t.Errorf("published before the save: %s, want %s", h.saved[0], want)
	}
	if hist, _ := got[1].content["history"].([]any); got[1].msgType != "history_reply" || len(hist) != 1 {
		t.Errorf("the history_request after the cell got %s %v, want the cell", got[1].msgType, got[1].content)
	}
}
