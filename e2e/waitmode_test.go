package e2e

import (
	"strings"
	"testing"
	"time"
)

// TestSpinningWaitThroughTheKernel drives Event.Wait's spinning mode (the
// default on a GPU, forced here with GOCL_WAIT=spin so that PoCL takes it)
// through a real kernel: copies waited for this way hold what was written,
// and an interrupt stops a wait that would never end without a stuck
// statement left behind, and without losing the session's values.
func TestSpinningWaitThroughTheKernel(t *testing.T) {
	needOpenCL(t)
	k := startKernel(t, "GOCL_WAIT=spin")
	got, _ := k.okResult(`ctx := cl.CreateSomeContext()
q := cl.NewQueue(ctx, cl.Profiling)
a := cl.Random(1 << 20)
buf := cl.NewBuffer(ctx, cl.ReadWrite|cl.CopyHostPtr, a)
ok := true
for i := 0; i < 20; i++ {
	a[i] = float64(i)
	ev := cl.EnqueueCopy(q, buf, a, cl.NonBlocking)
	ev.Wait()
	back := make([]float64, len(a))
	cl.EnqueueCopy(q, back, buf)
	ok = ok && ev.Status() == "complete" && cl.Equal(back, a)
}
ok`)
	if got != "true" {
		t.Fatalf("copies waited for by spinning: %q, want true", got)
	}

	k.execute("u := cl.NewUserEvent(ctx)\nm := cl.EnqueueMarker(q, cl.WaitFor(u))\nq.Flush()", nil)
	go func() {
		time.Sleep(500 * time.Millisecond)
		k.request(k.control, "interrupt_request", map[string]any{}, 10*time.Second, false)
	}()
	start := time.Now()
	rep, outs := k.execute("m.Wait()", nil)
	if rep["status"] != "error" || !strings.Contains(rep["evalue"].(string)+rep["ename"].(string), "nterrupt") {
		t.Fatalf("interrupted spinning wait: %v %v", rep, outs)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the interrupt took %v to stop a spinning wait", d)
	}
	rep, outs = k.execute("u.SetComplete()\nm.Wait()\nm.Status()", nil)
	res := ofType(outs, "execute_result")
	if rep["status"] != "ok" || len(res) != 1 || decode(t, res[0])["data"].(map[string]any)["text/plain"] != `"complete"` {
		t.Fatalf("after the interrupt: %v %v, want the marker complete", rep, outs)
	}
	if e := stream(t, outs, "stderr"); strings.Contains(e, "still blocked") {
		t.Errorf("the interrupted spinning wait was left stuck: %s", e)
	}
}
