package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"

	"github.com/seed43a1e1ab/gocl/kernel/wire"
)

// TestInterruptKeepsWidgetCallbacks is issue 23's dashboard: a slider's
// OnChange registered before an interrupt keeps firing after it, after an
// interrupted cell and after an interrupted callback alike.
func TestInterruptKeepsWidgetCallbacks(t *testing.T) {
	k := startKernel(t)
	rep, outs := k.execute(`
size := widgets.NewIntSlider("size", 0, 100, 1)
card := widgets.NewOutput()
size.OutputTo(card)
scale := func(n int) int { return 10 * n }
size.OnChange(func(n int) { card.Replace(fmt.Sprintf("size %d -> %d", n, scale(n))) })
spin := widgets.NewButton("spin")
spin.OutputTo(card)
spin.OnClick(func() { for {} })
widgets.Show(size, spin, card)
`, nil)
	if rep["status"] != "ok" {
		t.Fatalf("setup: %v", rep)
	}
	views := viewIDs(t, outs, "display_data")
	if len(views) != 3 {
		t.Fatalf("displayed %v, want the slider, the button and the card", views)
	}
	sizeID, spinID, cardID := views[0], views[1], views[2]
	drag := func(after string, v int) {
		t.Helper()
		got := k.commSend("comm_msg", map[string]any{"comm_id": sizeID,
			"data": map[string]any{"method": "update", "state": map[string]any{"value": v}, "buffer_paths": []any{}}})
		want := fmt.Sprintf("size %d -> %d", v, 10*v)
		if text, errs, _ := outputsText(t, got, cardID); text != want || errs != nil {
			t.Errorf("%s: the card shows %q %v, want %q", after, text, errs, want)
		}
	}
	drag("before any interrupt", 3)
	if rep := k.runInterrupted("for {}", 300*time.Millisecond); rep["ename"] != "Interrupted" {
		t.Errorf("loop: %v", rep)
	}
	drag("after an interrupted cell", 4)

	// The callback that never returns is interrupted like a cell.
	click, err := wire.NewMessage("comm_msg", k.session, nil, map[string]any{"comm_id": spinID,
		"data": map[string]any{"method": "custom", "content": map[string]any{"event": "click"}}})
	if err != nil {
		t.Fatal(err)
	}
	frames, _ := k.signer.Encode(click)
	if err := k.shell.Send(zmq4.NewMsgFrom(frames...)); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	k.request(k.control, "interrupt_request", map[string]any{}, 10*time.Second, false)
	if !k.waitIdle(click.Header.MsgID, 10*time.Second) {
		t.Fatalf("the looping callback did not stop at the interrupt\n%s", k.stderr.String())
	}
	drag("after an interrupted callback", 5)
	k.expectPrints("after both", `fmt.Println(size.Value(), scale(2))`, "5 20\n")
	if strings.Contains(k.stderr.String(), "replacing the engine") {
		t.Errorf("the engine was replaced:\n%s", k.stderr.String())
	}
}
