package dispatch

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/seed43a1e1ab/gocl/kernel/cellio"
	"github.com/seed43a1e1ab/gocl/kernel/transport"
)

// debugEngine is an engine whose cell waits, as one stopped at a
// breakpoint does, until a continue request arrives on the control
// channel.
type debugEngine struct {
	resumed chan struct{}
	events  func(json.RawMessage)
}

func (e *debugEngine) Execute(ctx context.Context, code string, sink cellio.Sink) cellio.Result {
	e.events(json.RawMessage(`{"type":"event","event":"stopped","body":{"reason":"breakpoint","threadId":1}}`))
	select {
	case <-e.resumed:
	case <-ctx.Done():
	}
	return cellio.Result{}
}
func (e *debugEngine) Evaluate(context.Context, string) (cellio.Bundle, *cellio.CellError) {
	return nil, nil
}
func (e *debugEngine) Close() error                           { return nil }
func (e *debugEngine) SetDebugEvents(f func(json.RawMessage)) { e.events = f }
func (e *debugEngine) Debug(_ context.Context, req json.RawMessage) (json.RawMessage, error) {
	var r struct{ Command string }
	_ = json.Unmarshal(req, &r)
	switch r.Command {
	case "continue":
		close(e.resumed)
	case "broken":
		return nil, errors.New("the engine is gone")
	}
	return json.RawMessage(`{"type":"response","success":true,"command":"` + r.Command + `"}`), nil
}

func TestDebugRequestsAreAnsweredWhileACellIsStopped(t *testing.T) {
	eng := &debugEngine{resumed: make(chan struct{})}
	ft := runKernel(t, eng)
	ft.shell <- request(t, "execute_request", map[string]any{"code": "x := 1"})
	deadline := time.Now().Add(10 * time.Second)
	for !ft.hasPublished("debug_event") {
		if time.Now().After(deadline) {
			t.Fatal("no debug_event published")
		}
		time.Sleep(5 * time.Millisecond)
	}
	ft.control <- request(t, "debug_request", map[string]any{"type": "request", "seq": 1, "command": "stackTrace"})
	ft.control <- request(t, "debug_request", map[string]any{"type": "request", "seq": 2, "command": "broken"})
	ft.control <- request(t, "debug_request", map[string]any{"type": "request", "seq": 3, "command": "continue"})
	got := ft.waitSent(t, 4)
	var replies []sent
	for _, s := range got {
		if s.msgType == "debug_reply" {
			if s.ch != transport.Control {
				t.Errorf("debug_reply on %v, want control", s.ch)
			}
			replies = append(replies, s)
		}
	}
	if len(replies) != 3 || replies[0].content["success"] != true || replies[1].content["success"] != false ||
		replies[1].content["command"] != "broken" || replies[1].content["message"] == nil {
		t.Fatalf("debug replies: %v", replies)
	}
	if got[len(got)-1].msgType != "execute_reply" {
		t.Fatalf("the cell ends after continue: %v", got)
	}
}

func TestKernelInfoOffersTheDebuggerOnlyWithOne(t *testing.T) {
	for _, tc := range []struct {
		eng  Engine
		want bool
	}{{&debugEngine{resumed: make(chan struct{})}, true}, {panickyEngine{}, false}} {
		ft := runKernel(t, tc.eng)
		ft.shell <- request(t, "kernel_info_request", map[string]any{})
		c := ft.waitSent(t, 1)[0].content
		if c["debugger"] != tc.want {
			t.Errorf("%T: debugger %v, want %v", tc.eng, c["debugger"], tc.want)
		}
		feats, _ := c["supported_features"].([]any)
		if (len(feats) == 1 && feats[0] == "debugger") != tc.want {
			t.Errorf("%T: supported_features %v", tc.eng, feats)
		}
	}
}

func (f *fakeTransport) hasPublished(msgType string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, p := range f.published {
		if p == msgType {
			return true
		}
	}
	return false
}
