// gocl patch: this whole file is gocl's (see ../PATCHES.md).

package interp_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

const panicStopSrc = `package main

func at(xs []int, i int) int {
	v := xs[i]
	return v
}

func safe() (err interface{}) {
	defer func() { err = recover() }()
	panic("recovered")
}

func main() {
	_ = safe()
	xs := []int{1, 2, 3}
	println(at(xs, 4))
}
`

// TestDebugStopsOnPanic checks that a debugger told to stop on panics stops
// once, for the panic nothing recovers, with the frames where it was raised
// (at's line 4, its i, main's line 16 as the caller); that Continue then
// lets Wait return the panic; and that without SetStopOnPanic nothing stops.
func TestDebugStopsOnPanic(t *testing.T) {
	for _, on := range []bool{true, false} {
		i := interp.New(interp.Options{})
		if err := i.Use(stdlib.Symbols); err != nil {
			t.Fatal(err)
		}
		prog, err := i.Compile(panicStopSrc)
		if err != nil {
			t.Fatal(err)
		}
		stops := make(chan *interp.DebugEvent, 4)
		dbg := i.Debug(context.Background(), prog, func(ev *interp.DebugEvent) {
			if ev.Reason() == interp.DebugPanic {
				stops <- ev
			}
		}, &interp.DebugOptions{GoRoutineStartAt1: true})
		dbg.SetStopOnPanic(on)
		if err := dbg.Continue(1); err != nil {
			t.Fatal(err)
		}
		if on {
			var ev *interp.DebugEvent
			select {
			case ev = <-stops:
			case <-time.After(10 * time.Second):
				t.Fatal("no DebugPanic event")
			}
			frames := ev.Frames(0, ev.FrameDepth())
			if len(frames) < 2 || frames[0].Name() != "at" || frames[0].Position().Line != 4 || frames[1].Position().Line != 16 {
				var got []string
				for _, f := range frames {
					got = append(got, f.Name()+":"+f.Position().String())
				}
				t.Fatalf("frames at the panic: %v", got)
			}
			got := ""
			for _, v := range frames[0].Scopes()[0].Variables() {
				if v.Name == "i" {
					got = fmt.Sprint(v.Value)
				}
			}
			if got != "4" {
				t.Fatalf("at's i where the panic was raised: %q, want 4", got)
			}
			if v, ok := ev.PanicValue(); !ok || !strings.Contains(toString(v), "index out of range") {
				t.Fatalf("PanicValue: %v %v", v, ok)
			}
			if err := dbg.Continue(1); err != nil {
				t.Fatal(err)
			}
		}
		_, err = dbg.Wait()
		var p interp.Panic
		if !errors.As(err, &p) {
			t.Fatalf("stopOnPanic=%v: Wait returned %v, want the panic", on, err)
		}
		select {
		case ev := <-stops:
			t.Fatalf("stopOnPanic=%v: an unexpected stop at %v", on, ev.Frames(0, 1)[0].Position())
		default:
		}
	}
}

func toString(v interface{}) string {
	if e, ok := v.(error); ok {
		return e.Error()
	}
	if s, ok := v.(string); ok {
		return s
	}
	return ""
}
