package cellctx

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/seed43a1e1ab/gocl/kernel/cellio"
)

// sink records what reaches it, as "stream:name:text", "display:id" and
// "comm:id".
type sink struct{ got []string }

func (s *sink) Stream(name, text string)               { s.got = append(s.got, "stream:"+name+":"+text) }
func (s *sink) Display(m cellio.Message)               { s.got = append(s.got, "display:"+m.DisplayID) }
func (s *sink) Input(p string, _ bool) (string, error) { return "answer to " + p, nil }

type commSink struct{ sink }

func (s *commSink) Comm(m cellio.CommMessage) { s.got = append(s.got, "comm:"+m.CommID) }

// capturer takes streams, and displays whose id is "mine".
type capturer struct{ got []string }

func (c *capturer) Stream(name, text string) { c.got = append(c.got, text) }
func (c *capturer) Display(m cellio.Message) bool {
	if m.DisplayID != "mine" {
		return false
	}
	c.got = append(c.got, "display:"+m.DisplayID)
	return true
}

func TestBeginAndEnd(t *testing.T) {
	if Running() != nil || Current() != context.Background() {
		t.Fatal("a request runs before any Begin")
	}
	ctx, cancel := context.WithCancel(context.Background())
	outer, endOuter := Begin(ctx, IO{})
	if Running() != outer || Current() != ctx {
		t.Fatal("Begin did not make its request the running one")
	}
	inner, endInner := Begin(context.Background(), IO{})
	if Running() != inner {
		t.Fatal("a nested Begin is not the running request")
	}
	endInner()
	endInner() // ending twice is harmless
	if Running() != outer {
		t.Error("ending a request did not bring back the one that ran before it")
	}
	cancel()
	if Current().Err() == nil {
		t.Error("Current() does not see the running request's cancellation")
	}
	endOuter()
	if Running() != nil || Current() != context.Background() {
		t.Error("a request still runs after every one ended")
	}
}

// TestNoRequest: every method is safe when no request runs, and what is
// emitted then is dropped.
func TestNoRequest(t *testing.T) {
	r := Running()
	r.Stream("stdout", "x")
	r.Display(cellio.Message{})
	r.Flush()
	if r.Comm(cellio.CommMessage{}) {
		t.Error("Comm without a request reported the message carried")
	}
	if _, err := r.Input("?", false); err == nil {
		t.Error("Input without a request succeeded")
	}
	r.Capture(&capturer{})() // nothing to capture, nothing to end
	if r.Context() != context.Background() {
		t.Error("a nil request's context is not the background one")
	}
}

func TestRouting(t *testing.T) {
	s := &sink{}
	flushes := 0
	r, end := Begin(context.Background(), IO{Sink: s, Flush: func() { flushes++ }})
	defer end()
	r.Stream("stdout", "a")
	r.Display(cellio.Message{DisplayID: "d1"})
	if got, _ := r.Input("name: ", false); got != "answer to name: " {
		t.Errorf("Input = %q, want the sink's answer", got)
	}
	outer, inner := &capturer{}, &capturer{}
	endOuter := r.Capture(outer)
	endInner := r.Capture(inner)
	r.Stream("stdout", "b")
	r.Display(cellio.Message{DisplayID: "mine"})
	r.Display(cellio.Message{DisplayID: "other"}) // the capture does not take it: it goes on to the sink
	endInner()
	endInner()
	r.Stream("stderr", "c")
	endOuter()
	r.Stream("stdout", "d")

	if want := "stream:stdout:a display:d1 display:other stream:stdout:d"; strings.Join(s.got, " ") != want {
		t.Errorf("sink got %q, want %q", strings.Join(s.got, " "), want)
	}
	if strings.Join(inner.got, " ") != "b display:mine" || strings.Join(outer.got, " ") != "c" {
		t.Errorf("inner capture got %q, outer %q; want the innermost capture to receive the output", inner.got, outer.got)
	}
	// One flush per display (3), one at each end of each capture (4).
	if flushes != 7 {
		t.Errorf("%d flushes, want 7: before each display and at both ends of each capture", flushes)
	}
}

// TestCapturesEndWithTheirRequest: a capture left open (a callback's
// goroutine that never returned) does not take the next request's output.
func TestCapturesEndWithTheirRequest(t *testing.T) {
	r, end := Begin(context.Background(), IO{Sink: &sink{}})
	c := &capturer{}
	r.Capture(c)
	end()
	s := &sink{}
	next, end := Begin(context.Background(), IO{Sink: s})
	defer end()
	next.Stream("stdout", "x")
	if len(c.got) != 0 || len(s.got) != 1 {
		t.Errorf("the next request's output went to an earlier request's capture: capture %q, sink %q", c.got, s.got)
	}
}

func TestComm(t *testing.T) {
	var log bytes.Buffer
	cs := &commSink{}
	r, end := Begin(context.Background(), IO{Sink: cs, Log: &log})
	if !r.Comm(cellio.CommMessage{CommID: "c1"}) || strings.Join(cs.got, " ") != "comm:c1" {
		t.Errorf("a CommSink got %q, want the message", cs.got)
	}
	end()
	plain, end := Begin(context.Background(), IO{Sink: &sink{}, Log: &log})
	defer end()
	if plain.Comm(cellio.CommMessage{CommID: "c2"}) {
		t.Error("a sink without Comm reported a comm message carried")
	}
	plain.Comm(cellio.CommMessage{CommID: "c3"})
	if n := strings.Count(log.String(), "widget and comm messages are dropped"); n != 1 {
		t.Errorf("the log says %d times that comm messages are dropped, want once:\n%s", n, log.String())
	}
}
