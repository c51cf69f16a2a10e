package enginehost

import (
	"context"
	"net"
	"testing"
	"time"

	"github.com/seed43a1e1ab/gocl/kernel/cellio"
	"github.com/seed43a1e1ab/gocl/kernel/enginewire"
)

// fakeEngine prints, asks for input, and waits for an interrupt when the
// code says "block".
type fakeEngine struct{}

func (fakeEngine) Execute(ctx context.Context, code string, sink cellio.Sink) cellio.Result {
	sink.Stream("stdout", "ran "+code+"\n")
	if code == "block" {
		<-ctx.Done()
		return cellio.Result{Err: &cellio.CellError{Name: "Interrupted", Value: "stopped"}}
	}
	if code == "ask" {
		v, err := sink.Input("name? ", false)
		if err != nil {
			return cellio.Result{Err: &cellio.CellError{Name: "StdinError", Value: err.Error()}}
		}
		return cellio.Result{Data: cellio.Bundle{"text/plain": v}}
	}
	return cellio.Result{Data: cellio.Bundle{"text/plain": "42"}}
}
func (fakeEngine) Evaluate(context.Context, string) (cellio.Bundle, *cellio.CellError) {
	return nil, nil
}
func (fakeEngine) Complete(code string, cursor int) ([]string, int, int, map[string]any) {
	return []string{code + "x"}, 0, cursor, nil
}
func (fakeEngine) Inspect(string, int, int) (map[string]any, bool) { return nil, false }
func (fakeEngine) IsComplete(string) (string, string)              { return "complete", "" }

func serve(t *testing.T) *enginewire.Conn {
	a, b := net.Pipe()
	h := New(enginewire.NewConn(b, b), fakeEngine{}, func(int) {})
	go h.Serve()
	t.Cleanup(func() { a.Close(); b.Close() })
	return enginewire.NewConn(a, a)
}

func next(t *testing.T, c *enginewire.Conn) enginewire.Event {
	t.Helper()
	ch := make(chan enginewire.Event, 1)
	go func() {
		var ev enginewire.Event
		if err := c.Receive(&ev); err == nil {
			ch <- ev
		}
	}()
	select {
	case ev := <-ch:
		return ev
	case <-time.After(10 * time.Second):
		t.Fatal("no event from the host (hang guard)")
	}
	return enginewire.Event{}
}

func TestExecuteStreamsThenResult(t *testing.T) {
	c := serve(t)
	c.Send(enginewire.Request{ID: 7, Op: enginewire.OpExecute, Body: enginewire.Body(enginewire.ExecuteBody{Code: "x"})})
	ev := next(t, c)
	var s enginewire.StreamBody
	if enginewire.Decode(ev.Kind, ev.Body, &s); ev.ID != 7 || ev.Kind != enginewire.EvStream || s.Text != "ran x\n" {
		t.Fatalf("first event %+v %+v", ev, s)
	}
	ev = next(t, c)
	var r enginewire.ExecuteReply
	if enginewire.Decode(ev.Kind, ev.Body, &r); ev.Kind != enginewire.EvDone || !hasText(r.Result.Data, "42") {
		t.Fatalf("done %+v %+v", ev, r)
	}
}

func TestInterruptAndInputReachTheCell(t *testing.T) {
	c := serve(t)
	c.Send(enginewire.Request{ID: 1, Op: enginewire.OpExecute, Body: enginewire.Body(enginewire.ExecuteBody{Code: "block"})})
	next(t, c) // its stream
	c.Send(enginewire.Request{Op: enginewire.OpInterrupt, Body: enginewire.Body(enginewire.TargetBody{Target: 1})})
	var r enginewire.ExecuteReply
	if ev := next(t, c); enginewire.Decode(ev.Kind, ev.Body, &r) != nil || r.Result.Err == nil || r.Result.Err.Name != "Interrupted" {
		t.Fatalf("after interrupt: %+v", r)
	}

	c.Send(enginewire.Request{ID: 2, Op: enginewire.OpExecute, Body: enginewire.Body(enginewire.ExecuteBody{Code: "ask", AllowStdin: true})})
	next(t, c) // its stream
	if ev := next(t, c); ev.Kind != enginewire.EvInput {
		t.Fatalf("want an input request, got %+v", ev)
	}
	c.Send(enginewire.Request{Op: enginewire.OpInputReply, Body: enginewire.Body(enginewire.InputReplyBody{Target: 2, Value: "Gopher"})})
	if ev := next(t, c); enginewire.Decode(ev.Kind, ev.Body, &r) != nil || !hasText(r.Result.Data, "Gopher") {
		t.Fatalf("after input: %+v", r)
	}

	c.Send(enginewire.Request{ID: 3, Op: "no_such_op"})
	if ev := next(t, c); ev.Kind != enginewire.EvDone || len(ev.Body) == 0 {
		t.Fatalf("an unknown request must get an error answer: %+v", ev)
	}
}

// hasText says whether b's text/plain is want.
func hasText(b cellio.Bundle, want string) bool {
	got, ok := b.Text("text/plain")
	return ok && got == want
}
