package e2e

import (
	"strings"
	"testing"
	"time"
)

// A user expression that never finishes (<-make(chan int)) wedged the kernel:
// no reply, interrupts ignored, kernel_info unanswered (issue 23). It must
// time out with an error that names it, and the kernel keep serving.
func TestUserExpressionThatBlocksTimesOut(t *testing.T) {
	k := startKernel(t)
	id := k.send(k.shell, "execute_request", map[string]any{"code": "n := 20", "silent": false, "store_history": true,
		"user_expressions": map[string]any{"stuck": "<-make(chan int)", "fine": "n + 1"}, "allow_stdin": false, "stop_on_error": true})
	m := k.recv(k.shell, 20*time.Second) // a guard, far above the deadline
	if m == nil || m.ParentHeader.MsgID != id {
		t.Fatalf("no execute_reply: a blocking user expression wedged the kernel")
	}
	rep := decode(t, m)
	if rep["status"] != "ok" {
		t.Fatalf("reply = %v", rep)
	}
	ue := rep["user_expressions"].(map[string]any)
	stuck, _ := ue["stuck"].(map[string]any)
	if stuck["status"] != "error" || stuck["ename"] != "Timeout" || !strings.Contains(stuck["evalue"].(string), `"stuck"`) {
		t.Errorf("stuck = %v, want a Timeout error that names it", stuck)
	}
	fine, _ := ue["fine"].(map[string]any)
	if fine["status"] != "ok" || fine["data"].(map[string]any)["text/plain"] != "21" {
		t.Errorf("fine = %v", fine)
	}
	if r := k.request(k.shell, "kernel_info_request", map[string]any{}, 5*time.Second, true); r == nil {
		t.Fatalf("kernel_info unanswered after the expression timed out")
	}
	rep, outs := k.execute("n", nil)
	if rep["status"] != "ok" || decode(t, ofType(outs, "execute_result")[0])["data"].(map[string]any)["text/plain"] != "20" {
		t.Errorf("the session did not keep serving: %v", rep)
	}
}

// An interrupt stops a user expression that blocks, as it stops a cell.
func TestUserExpressionObeysInterrupt(t *testing.T) {
	k := startKernel(t)
	id := k.send(k.shell, "execute_request", map[string]any{"code": "m := 1", "silent": false, "store_history": true,
		"user_expressions": map[string]any{"stuck": "<-make(chan int)"}, "allow_stdin": false, "stop_on_error": true})
	time.Sleep(500 * time.Millisecond)
	if r := k.request(k.control, "interrupt_request", map[string]any{}, 10*time.Second, true); r == nil {
		t.Fatal("no interrupt_reply")
	}
	m := k.recv(k.shell, 20*time.Second)
	if m == nil || m.ParentHeader.MsgID != id {
		t.Fatalf("no execute_reply after the interrupt")
	}
	stuck, _ := decode(t, m)["user_expressions"].(map[string]any)["stuck"].(map[string]any)
	if stuck["status"] != "error" || stuck["ename"] != "Interrupted" {
		t.Errorf("stuck = %v, want Interrupted", stuck)
	}
	if rep, _ := k.execute("m", nil); rep["status"] != "ok" {
		t.Errorf("the session did not keep serving: %v", rep)
	}
}
