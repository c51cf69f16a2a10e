package comm

import (
	"context"
	"errors"
	"testing"

	"github.com/seed43a1e1ab/gocl/kernel/cellctx"
	"github.com/seed43a1e1ab/gocl/kernel/cellio"
)

type recorder struct {
	msgs   []Message
	closed []Message
}

func (r *recorder) Msg(m Message) error {
	if m.Data["fail"] == true {
		return errors.New("handler failed")
	}
	r.msgs = append(r.msgs, m)
	return nil
}
func (r *recorder) Closed(m Message) { r.closed = append(r.closed, m) }

// sink is a request's sink that keeps the comm messages it carries.
type sink struct{ out []Message }

func (s *sink) Stream(string, string)              {}
func (s *sink) Display(cellio.Message)             {}
func (s *sink) Input(string, bool) (string, error) { return "", cellio.ErrNoStdin }
func (s *sink) Comm(m Message)                     { s.out = append(s.out, m) }

// plain is a request's sink that cannot carry comm messages.
type plain struct{}

func (plain) Stream(string, string)              {}
func (plain) Display(cellio.Message)             {}
func (plain) Input(string, bool) (string, error) { return "", cellio.ErrNoStdin }

func TestLifeCycle(t *testing.T) {
	s := &sink{}
	_, end := cellctx.Begin(context.Background(), cellctx.IO{Sink: s})
	defer end()
	Reset()
	defer Reset()

	h := &recorder{}
	out := func() []Message { return s.out }
	id := Open("", "jupyter.widget", map[string]any{"state": map[string]any{}}, map[string]any{"version": "2.1.0"}, nil, h)
	if len(id) != 32 || len(out()) != 1 || out()[0].Type != TypeOpen || out()[0].Content()["target_name"] != "jupyter.widget" {
		t.Fatalf("Open: id %q, published %+v", id, out())
	}
	if err := Send(id, map[string]any{"method": "update"}, nil, nil); err != nil || len(out()) != 2 {
		t.Fatalf("Send: %v, %d published", err, len(out()))
	}
	if err := Deliver(Message{Type: TypeMsg, CommID: id, Data: map[string]any{"x": 1.0}}); err != nil || len(h.msgs) != 1 {
		t.Fatalf("Deliver comm_msg: %v, handler got %d", err, len(h.msgs))
	}
	if err := Deliver(Message{Type: TypeMsg, CommID: id, Data: map[string]any{"fail": true}}); err == nil {
		t.Error("a failing handler's error was lost")
	}
	if got := Info("jupyter.widget"); got[id] != "jupyter.widget" || len(Info("other")) != 0 {
		t.Errorf("Info: %v", got)
	}
	if err := Deliver(Message{Type: TypeClose, CommID: id}); err != nil || len(h.closed) != 1 || IsOpen(id) {
		t.Errorf("Deliver comm_close: %v, closed %d, open %v", err, len(h.closed), IsOpen(id))
	}
	if err := Send(id, nil, nil, nil); err == nil {
		t.Error("Send on a closed comm must fail")
	}
	if err := Deliver(Message{Type: TypeMsg, CommID: id}); err == nil {
		t.Error("a comm_msg for a closed comm must be an error")
	}

	// Front-end opens: known targets get a handler, unknown ones a comm_close.
	h2 := &recorder{}
	RegisterTarget("t", func(m Message) (Handler, error) { return h2, nil })
	if err := Deliver(Message{Type: TypeOpen, CommID: "f1", TargetName: "t"}); err != nil || !IsOpen("f1") {
		t.Fatalf("open of a known target: %v", err)
	}
	s.out = nil
	var refused *RefusedError
	if err := Deliver(Message{Type: TypeOpen, CommID: "f2", TargetName: "nope"}); !errors.As(err, &refused) ||
		len(out()) != 1 || out()[0].Type != TypeClose || out()[0].CommID != "f2" {
		t.Errorf("open of an unknown target: %v, published %+v", err, out())
	}
	resets := 0
	OnReset(func() { resets++ })
	Reset()
	if IsOpen("f1") || len(h2.closed) != 1 || resets != 1 {
		t.Errorf("Reset: open %v, closed %d, resets %d", IsOpen("f1"), len(h2.closed), resets)
	}
}

// TestRoute checks where kernel-side messages go: through the running
// request; with none running (a goroutine a cell started), through the last
// request that carried one; nowhere when the running request's sink cannot
// carry comms, and nowhere after Reset.
func TestRoute(t *testing.T) {
	Reset()
	defer Reset()
	h := &recorder{}
	first, second := &sink{}, &sink{}
	_, end := cellctx.Begin(context.Background(), cellctx.IO{Sink: first})
	id := Open("", "t", nil, nil, nil, h)
	end()
	_, end = cellctx.Begin(context.Background(), cellctx.IO{Sink: second})
	Send(id, map[string]any{"n": 1.0}, nil, nil)
	end()
	Send(id, map[string]any{"n": 2.0}, nil, nil) // no request runs
	_, end = cellctx.Begin(context.Background(), cellctx.IO{Sink: plain{}})
	Send(id, map[string]any{"n": 3.0}, nil, nil)
	end()
	if len(first.out) != 1 || first.out[0].Type != TypeOpen {
		t.Errorf("the first request's sink got %+v, want the comm_open only", first.out)
	}
	if len(second.out) != 2 || second.out[0].Data["n"] != 1.0 || second.out[1].Data["n"] != 2.0 {
		t.Errorf("the second request's sink got %+v, want n=1 (while it ran) and n=2 (sent after it, with none running)", second.out)
	}
	Reset()
	if Open("", "t", nil, nil, nil, h); len(second.out) != 2 {
		t.Errorf("after Reset a message went to an old request's sink: %+v", second.out[2:])
	}
}
