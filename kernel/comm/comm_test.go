package comm

import (
	"errors"
	"testing"
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

func TestLifeCycle(t *testing.T) {
	var out []Message
	SetPublisher(func(m Message) { out = append(out, m) })
	defer SetPublisher(nil)
	Reset()
	defer Reset()

	h := &recorder{}
	id := Open("", "jupyter.widget", map[string]any{"state": map[string]any{}}, map[string]any{"version": "2.1.0"}, nil, h)
	if len(id) != 32 || len(out) != 1 || out[0].Type != TypeOpen || out[0].Content()["target_name"] != "jupyter.widget" {
		t.Fatalf("Open: id %q, published %+v", id, out)
	}
	if err := Send(id, map[string]any{"method": "update"}, nil, nil); err != nil || len(out) != 2 {
		t.Fatalf("Send: %v, %d published", err, len(out))
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
	out = nil
	var refused *RefusedError
	if err := Deliver(Message{Type: TypeOpen, CommID: "f2", TargetName: "nope"}); !errors.As(err, &refused) ||
		len(out) != 1 || out[0].Type != TypeClose || out[0].CommID != "f2" {
		t.Errorf("open of an unknown target: %v, published %+v", err, out)
	}
	resets := 0
	OnReset(func() { resets++ })
	Reset()
	if IsOpen("f1") || len(h2.closed) != 1 || resets != 1 {
		t.Errorf("Reset: open %v, closed %d, resets %d", IsOpen("f1"), len(h2.closed), resets)
	}
}
