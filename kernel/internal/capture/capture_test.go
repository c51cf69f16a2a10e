package capture

import (
	"testing"

	"github.com/seed43a1e1ab/gocl/kernel/cellio"
)

type rec struct{ text string }

func (r *rec) Stream(name, text string)      { r.text += text }
func (r *rec) Display(m cellio.Message) bool { return m.DisplayID == "mine" }

func TestNestingAndFlush(t *testing.T) {
	flushes := 0
	SetFlusher(func() { flushes++ })
	defer SetFlusher(nil)
	defer Reset()
	if Current() != nil {
		t.Fatal("a capture in effect before any Push")
	}
	outer, inner := &rec{}, &rec{}
	endOuter := Push(outer)
	endInner := Push(inner)
	if Current() != inner {
		t.Error("the innermost capture must receive the output")
	}
	endInner()
	endInner() // ending twice is harmless
	if Current() != outer {
		t.Error("ending the inner capture must restore the outer one")
	}
	endOuter()
	if Current() != nil || flushes != 4 {
		t.Errorf("after both ends: current %v, %d flushes; want none and 4 (both ends of both)", Current(), flushes)
	}
	Push(outer)
	Reset()
	if Current() != nil {
		t.Error("Reset left a capture in effect")
	}
}
