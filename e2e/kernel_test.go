package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"
)

func TestKernelInfo(t *testing.T) {
	k := startKernel(t)
	r := k.request(k.shell, "kernel_info_request", map[string]any{}, 10*time.Second, false)
	if r.Header.MsgType != "kernel_info_reply" {
		t.Fatalf("got %s", r.Header.MsgType)
	}
	c := decode(t, r)
	li := c["language_info"].(map[string]any)
	if c["status"] != "ok" || c["implementation"] != "gocl" || c["protocol_version"] != "5.3" ||
		li["name"] != "go" || li["mimetype"] != "text/x-go" || li["file_extension"] != ".go" ||
		li["pygments_lexer"] != "go" || li["codemirror_mode"] != "go" || li["version"] == "" {
		t.Errorf("kernel_info_reply = %v", c)
	}
	if r.Metadata == nil {
		t.Error("metadata missing: must be {}")
	}
	k.waitIdle(r.ParentHeader.MsgID, 10*time.Second)
	if st := k.statuses(r.ParentHeader.MsgID); strings.Join(st, ",") != "busy,idle" {
		t.Errorf("statuses around kernel_info = %v, want busy,idle", st)
	}
	// The same request on control is answered on control.
	r = k.request(k.control, "kernel_info_request", map[string]any{}, 10*time.Second, false)
	if r.Header.MsgType != "kernel_info_reply" {
		t.Fatalf("control: got %s", r.Header.MsgType)
	}
}

func TestExecuteStreamsResultsAndCount(t *testing.T) {
	k := startKernel(t)
	rep, outs := k.execute("fmt.Println(\"hello\")\nx := 40\nx + 2", nil)
	if rep["status"] != "ok" || rep["execution_count"].(float64) != 1 {
		t.Fatalf("reply = %v", rep)
	}
	if got := stream(t, outs, "stdout"); got != "hello\n" {
		t.Errorf("stdout = %q", got)
	}
	in := ofType(outs, "execute_input")
	if len(in) != 1 || decode(t, in[0])["code"] == "" {
		t.Errorf("execute_input = %v", in)
	}
	res := ofType(outs, "execute_result")
	if len(res) != 1 {
		t.Fatalf("execute_result messages: %d", len(res))
	}
	rc := decode(t, res[0])
	if rc["data"].(map[string]any)["text/plain"] != "42" || rc["execution_count"].(float64) != 1 {
		t.Errorf("execute_result = %v", rc)
	}
	if res[0].Metadata == nil {
		t.Error("execute_result metadata must be {}")
	}
	// A last line that prints shows nothing but its output.
	_, outs = k.execute(`fmt.Println("twelve chars")`, nil)
	if n := len(ofType(outs, "execute_result")); n != 0 {
		t.Errorf("fmt.Println produced %d execute_result messages", n)
	}
	rep, outs = k.execute("x", map[string]any{"silent": true})
	if len(outs) != 0 {
		t.Errorf("silent execution published %d messages", len(outs))
	}
	rep, _ = k.execute("x", map[string]any{"store_history": false})
	if rep["execution_count"].(float64) != 2 {
		t.Errorf("store_history=false moved the count: %v", rep["execution_count"])
	}
	rep, _ = k.execute("x", nil)
	if rep["execution_count"].(float64) != 3 {
		t.Errorf("count = %v, want 3", rep["execution_count"])
	}
	// Go 1.21's min and max, which the interpreter lacks, work in cells.
	rep, outs = k.execute("float64(min(x, 3, 7)) + max(2.5, 1.5)", nil)
	if res := ofType(outs, "execute_result"); rep["status"] != "ok" || len(res) != 1 ||
		decode(t, res[0])["data"].(map[string]any)["text/plain"] != "5.5" {
		t.Errorf("min and max: reply %v, outputs %d", rep, len(outs))
	}
	// So does a comma-ok receive at a cell's top level.
	rep, outs = k.execute("rc := make(chan int, 1)\nrc <- 4\nrv, rok := <-rc\nfmt.Sprint(rv*10, rok)", nil)
	if res := ofType(outs, "execute_result"); rep["status"] != "ok" || len(res) != 1 ||
		decode(t, res[0])["data"].(map[string]any)["text/plain"] != `"40 true"` {
		t.Errorf("comma-ok receive: reply %v, outputs %d", rep, len(outs))
	}
}

func TestErrorsPointAtTheCellAndKeepState(t *testing.T) {
	k := startKernel(t)
	k.execute("y := 7", nil)
	rep, outs := k.execute("a := 1\nb := a +* 2", nil)
	if rep["status"] != "error" {
		t.Fatalf("reply = %v", rep)
	}
	errs := ofType(outs, "error")
	if len(errs) != 1 {
		t.Fatalf("%d error messages", len(errs))
	}
	if s := stream(t, outs, "stderr"); s != "" {
		t.Errorf("an error also wrote to stderr: %q", s)
	}
	c := decode(t, errs[0])
	tb := fmt.Sprint(c["traceback"])
	if !strings.Contains(tb, "2") || !strings.Contains(tb, "a +* 2") {
		t.Errorf("traceback does not point at line 2: %v", tb)
	}
	rep, outs = k.execute("y * 6", nil)
	if rep["status"] != "ok" || decode(t, ofType(outs, "execute_result")[0])["data"].(map[string]any)["text/plain"] != "42" {
		t.Errorf("state lost after an error: %v", rep)
	}
	rep, outs = k.execute("var s []int\n_ = s[3]", nil)
	if rep["status"] != "error" || !strings.Contains(fmt.Sprint(rep["evalue"]), "index out of range") {
		t.Errorf("panic reply = %v", rep)
	}
}

func TestStopOnErrorAbortsQueuedCells(t *testing.T) {
	k := startKernel(t)
	base := map[string]any{"silent": false, "store_history": true, "user_expressions": map[string]any{},
		"allow_stdin": false, "stop_on_error": true}
	with := func(code string) map[string]any {
		c := map[string]any{}
		for key, v := range base {
			c[key] = v
		}
		c["code"] = code
		return c
	}
	id1 := k.send(k.shell, "execute_request", with("time.Sleep(300 * time.Millisecond)\npanic(\"boom\")"))
	id2 := k.send(k.shell, "execute_request", with("fmt.Println(\"must not run\")"))
	id3 := k.send(k.shell, "execute_request", with("fmt.Println(\"must not run either\")"))
	got := map[string]string{}
	for len(got) < 3 {
		m := k.recv(k.shell, 30*time.Second)
		if m == nil {
			t.Fatalf("only %d replies", len(got))
		}
		got[m.ParentHeader.MsgID] = decode(t, m)["status"].(string)
	}
	if got[id1] != "error" || got[id2] != "aborted" || got[id3] != "aborted" {
		t.Errorf("statuses = %v", got)
	}
	if s := stream(t, k.outputs(id2), "stdout"); s != "" {
		t.Errorf("an aborted cell ran: %q", s)
	}
	rep, _ := k.execute("1", nil)
	if rep["status"] != "ok" {
		t.Errorf("kernel did not recover after abort: %v", rep)
	}
}

func TestUserExpressions(t *testing.T) {
	k := startKernel(t)
	rep, _ := k.execute("z := 21", map[string]any{"user_expressions": map[string]any{"double": "z * 2", "bad": "nosuch + 1"}})
	ue := rep["user_expressions"].(map[string]any)
	d := ue["double"].(map[string]any)
	if d["status"] != "ok" || d["data"].(map[string]any)["text/plain"] != "42" {
		t.Errorf("double = %v", d)
	}
	if b := ue["bad"].(map[string]any); b["status"] != "error" {
		t.Errorf("bad = %v", b)
	}
}

func TestBadMessagesAreDroppedAndKernelKeepsServing(t *testing.T) {
	k := startKernel(t)
	// A message signed with the wrong key.
	bad, _ := k.signer.Encode(mustMessage(t, k, "execute_request", map[string]any{"code": "panic(1)"}))
	bad[1] = []byte(strings.Repeat("0", 64))
	k.shell.Send(zmq4.NewMsgFrom(bad...))
	// Missing frames, no delimiter, bad JSON.
	k.shell.Send(zmq4.NewMsgFrom([]byte("<IDS|MSG>")))
	k.shell.Send(zmq4.NewMsgFrom([]byte("garbage"), []byte("more garbage")))
	good, _ := k.signer.Encode(mustMessage(t, k, "execute_request", map[string]any{"code": "1"}))
	good[3] = []byte("{not json")
	k.shell.Send(zmq4.NewMsgFrom(good...))
	k.control.Send(zmq4.NewMsgFrom([]byte("<IDS|MSG>"), []byte("x")))
	if m := k.recv(k.shell, 500*time.Millisecond); m != nil {
		t.Fatalf("the kernel answered a bad message: %s", m.Header.MsgType)
	}
	rep, _ := k.execute("2 + 2", nil)
	if rep["status"] != "ok" {
		t.Fatalf("kernel stopped serving after bad messages: %v", rep)
	}
	if !strings.Contains(k.stderr.String(), "signature") {
		t.Errorf("the bad signature was not logged:\n%s", k.stderr.String())
	}
}

func TestHeartbeatWhileBusyAndInterrupt(t *testing.T) {
	k := startKernel(t)
	k.execute("defined := 5", nil)
	content := map[string]any{"code": "for {}", "silent": false, "store_history": true, "user_expressions": map[string]any{},
		"allow_stdin": false, "stop_on_error": true}
	id := k.send(k.shell, "execute_request", content)
	time.Sleep(300 * time.Millisecond)
	// The heartbeat echoes while the cell spins.
	if err := k.hb.Send(zmq4.NewMsg([]byte("ping"))); err != nil {
		t.Fatal(err)
	}
	hb := make(chan string, 1)
	go func() {
		m, err := k.hb.Recv()
		if err == nil {
			hb <- string(m.Bytes())
		}
	}()
	select {
	case s := <-hb:
		if s != "ping" {
			t.Errorf("heartbeat echoed %q", s)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no heartbeat echo while a cell runs")
	}
	// Interrupt on control: the reply comes on control, the cell stops.
	start := time.Now()
	r := k.request(k.control, "interrupt_request", map[string]any{}, 10*time.Second, false)
	if r.Header.MsgType != "interrupt_reply" {
		t.Fatalf("got %s on control", r.Header.MsgType)
	}
	m := k.recv(k.shell, 10*time.Second)
	if m == nil || m.ParentHeader.MsgID != id {
		t.Fatal("the interrupted cell did not reply")
	}
	t.Logf("interrupt to reply: %v", time.Since(start))
	c := decode(t, m)
	if c["status"] != "error" || c["ename"] != "Interrupted" {
		t.Errorf("reply = %v", c)
	}
	rep, outs := k.execute("defined", nil)
	if rep["status"] != "ok" || decode(t, ofType(outs, "execute_result")[0])["data"].(map[string]any)["text/plain"] != "5" {
		t.Errorf("state lost after interrupt: %v", rep)
	}
}

func TestSIGINTInterrupts(t *testing.T) {
	k := startKernel(t)
	id := k.send(k.shell, "execute_request", map[string]any{"code": "for {}", "silent": false, "store_history": true,
		"user_expressions": map[string]any{}, "allow_stdin": false, "stop_on_error": true})
	time.Sleep(300 * time.Millisecond)
	k.cmd.Process.Signal(syscall.SIGINT)
	m := k.recv(k.shell, 10*time.Second)
	if m == nil || m.ParentHeader.MsgID != id || decode(t, m)["ename"] != "Interrupted" {
		t.Fatalf("SIGINT did not interrupt the cell: %v", m)
	}
}

func TestHundredMegabytesOfOutput(t *testing.T) {
	k := startKernel(t)
	rep, outs := k.execute(`line := strings.Repeat("x", 1<<20-1) + "\n"
for i := 0; i < 100; i++ { os.Stdout.WriteString(line) }
"done"`, nil)
	if rep["status"] != "ok" {
		t.Fatalf("reply = %v", rep)
	}
	got := stream(t, outs, "stdout")
	t.Logf("received %d bytes of stdout in %d stream messages", len(got), len(ofType(outs, "stream")))
	if len(got) < 1<<20 {
		t.Errorf("too little output arrived: %d bytes", len(got))
	}
	if len(got) < 100<<20 && !strings.Contains(got, "dropped") {
		t.Errorf("output was dropped without saying so")
	}
	if rss := rssMB(t, k.cmd.Process.Pid); rss > 1024 {
		t.Errorf("kernel resident memory %d MB after 100 MB of output", rss)
	}
	rep, _ = k.execute("1", nil)
	if rep["status"] != "ok" {
		t.Errorf("kernel stuck after large output: %v", rep)
	}
}

func rssMB(t *testing.T, pid int) int {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Skip("no /proc")
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "VmRSS:") {
			f := strings.Fields(line)
			kb, _ := strconv.Atoi(f[1])
			return kb / 1024
		}
	}
	return 0
}

func TestCommsAndUnknownTarget(t *testing.T) {
	k := startKernel(t)
	r := k.request(k.shell, "comm_info_request", map[string]any{}, 10*time.Second, false)
	if c := decode(t, r); c["status"] != "ok" || len(c["comms"].(map[string]any)) != 0 {
		t.Errorf("comm_info_reply = %v", c)
	}
	id := k.send(k.shell, "comm_open", map[string]any{"comm_id": "c1", "target_name": "nosuch", "data": map[string]any{}})
	k.waitIdle(id, 10*time.Second)
	closes := ofType(k.outputs(id), "comm_close")
	if len(closes) != 1 || decode(t, closes[0])["comm_id"] != "c1" {
		t.Errorf("comm_open to an unknown target was not closed: %v", closes)
	}
}

func TestStdin(t *testing.T) {
	k := startKernel(t)
	id := k.send(k.shell, "execute_request", map[string]any{"code": "fmt.Print(\"name? \")\nvar name string\nfmt.Scanln(&name)\n\"hi \" + name",
		"silent": false, "store_history": true, "user_expressions": map[string]any{}, "allow_stdin": true, "stop_on_error": true})
	req := k.recv(k.stdin, 20*time.Second)
	if req == nil || req.Header.MsgType != "input_request" || req.ParentHeader.MsgID != id {
		t.Fatalf("no input_request: %v", req)
	}
	if p := decode(t, req)["prompt"]; p != "name? " {
		t.Errorf("prompt = %q", p)
	}
	reply, _ := json.Marshal(map[string]any{"value": "gopher"})
	m := mustMessage(t, k, "input_reply", json.RawMessage(reply))
	m.ParentHeader = &req.Header
	frames, _ := k.signer.Encode(m)
	k.stdin.Send(zmq4.NewMsgFrom(frames...))
	r := k.recv(k.shell, 20*time.Second)
	k.waitIdle(id, 10*time.Second)
	res := ofType(k.outputs(id), "execute_result")
	if decode(t, r)["status"] != "ok" || len(res) != 1 || decode(t, res[0])["data"].(map[string]any)["text/plain"] != `"hi gopher"` {
		t.Errorf("reply %v, result %v", decode(t, r), res)
	}
	// Without allow_stdin, reading fails at once instead of hanging.
	rep, _ := k.execute("var v string\n_, err := fmt.Scanln(&v)\nerr != nil", map[string]any{"allow_stdin": false})
	if rep["status"] != "ok" {
		t.Errorf("reply = %v", rep)
	}
}

func TestRestartGivesAFreshInterpreter(t *testing.T) {
	k := startKernel(t)
	k.execute("kept := 1", nil)
	r := k.request(k.control, "shutdown_request", map[string]any{"restart": true}, 10*time.Second, false)
	if c := decode(t, r); r.Header.MsgType != "shutdown_reply" || c["restart"] != true {
		t.Fatalf("reply %s %v", r.Header.MsgType, c)
	}
	rep, _ := k.execute("kept", nil)
	if rep["status"] != "error" {
		t.Errorf("a variable survived the restart: %v", rep)
	}
	if rep["execution_count"].(float64) != 1 {
		t.Errorf("execution count after restart = %v, want 1", rep["execution_count"])
	}
}

func TestShutdownExitsCleanly(t *testing.T) {
	k := startKernel(t)
	r := k.request(k.control, "shutdown_request", map[string]any{"restart": false}, 10*time.Second, false)
	if r.Header.MsgType != "shutdown_reply" {
		t.Fatalf("got %s", r.Header.MsgType)
	}
	select {
	case <-k.exited:
		if k.exitErr != nil {
			t.Errorf("kernel exited with %v", k.exitErr)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("kernel did not exit after shutdown_request")
	}
}

func mustMessage(t *testing.T, k *kernel, typ string, content any) *wireMessage {
	m, err := newMessage(typ, k.session, content)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
