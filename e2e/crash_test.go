package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"

	"github.com/seed43a1e1ab/gocl/kernel/wire"
)

// The crash tests kill the engine process in each way the issue lists. Each
// time the cell ends with one error that says what killed the engine, the
// kernel's heartbeat is answered throughout, the next cell runs in a fresh
// engine, execution counts go on, and no engine process is left.

// enginePIDs lists the live `gocl engine` processes whose parent is pid.
func enginePIDs(pid int) []int {
	var out []int
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		stat, err := os.ReadFile(filepath.Join(d, "stat"))
		if err != nil {
			continue
		}
		s := string(stat)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) < 2 || f[0] == "Z" || f[1] != strconv.Itoa(pid) {
			continue
		}
		cmd, _ := os.ReadFile(filepath.Join(d, "cmdline"))
		if strings.Contains(string(cmd), "engine") {
			n, _ := strconv.Atoi(filepath.Base(d))
			out = append(out, n)
		}
	}
	return out
}

// alive says whether process pid exists and is no zombie.
func alive(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	s := string(stat)
	i := strings.LastIndexByte(s, ')')
	return i >= 0 && !strings.HasPrefix(strings.TrimSpace(s[i+1:]), "Z")
}

// heartbeat pings the kernel every 100 ms until stop is called and returns
// how many pings went unanswered for more than a second.
func heartbeat(k *kernel) (stop func() int) {
	var missed atomic.Int32
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		for {
			select {
			case <-done:
				return
			case <-time.After(100 * time.Millisecond):
			}
			got := make(chan struct{})
			go func() {
				if k.hb.Send(zmq4.NewMsg([]byte("ping"))) == nil {
					if _, err := k.hb.Recv(); err == nil {
						close(got)
					}
				}
			}()
			select {
			case <-got:
			case <-time.After(time.Second):
				missed.Add(1)
				<-got // a REQ socket must get its reply before the next send
			}
		}
	}()
	return func() int { close(done); <-finished; return int(missed.Load()) }
}

// expectEngineGone checks that no engine process of the kernel outlives it.
func expectEngineGone(t *testing.T, k *kernel) {
	t.Helper()
	pids := enginePIDs(k.cmd.Process.Pid)
	if len(pids) != 1 {
		t.Errorf("engine processes of the kernel: %v, want one", pids)
	}
	k.cmd.Process.Kill() // kill -9 of the kernel
	<-k.exited
	deadline := time.Now().Add(5 * time.Second)
	for _, pid := range pids {
		for alive(pid) {
			if time.Now().After(deadline) {
				t.Fatalf("engine process %d outlived its kernel (kill -9)", pid)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

type crashCase struct {
	name   string
	env    []string
	setup  string   // a cell run first (its values are lost)
	cell   string   // the cell that kills the engine
	before string   // output the cell prints before it crashes
	want   []string // in the error's evalue or traceback
}

var crashCases = []crashCase{
	{name: "recursion", cell: "func down(n int) int { return down(n+1) + 1 }\nfmt.Println(\"going down\")\ndown(0)",
		before: "going down", want: []string{"stack overflow", "unbounded recursion", "goroutine"}},
	{name: "concurrent map writes", cell: `m := map[int]int{}
var wg sync.WaitGroup
fmt.Println("racing")
for i := 0; i < 8; i++ { wg.Add(1); go func() { defer wg.Done(); for j := 0; j < 1000000; j++ { m[j] = j } }() }
wg.Wait()`, before: "racing", want: []string{"concurrent map writes", "sync.Mutex", "goroutine"}},
	{name: "terabyte make", cell: "fmt.Println(\"asking\")\nb := make([]byte, 1<<40)\nb[0] = 1",
		before: "asking", want: []string{"out of memory", "memory limit"}},
	{name: "30 GB under a 2 GB limit", env: []string{"GOCL_MEMORY_LIMIT=2GB"},
		cell: "b := make([]byte, 30<<30)\nfor i := range b { b[i] = 1 }", want: []string{"out of memory", "2 GiB", "GOCL_MEMORY_LIMIT"}},
	{name: "PoCL buffers beyond a 2 GB limit", env: []string{"GOCL_MEMORY_LIMIT=2GB"}, cell: `ctx := cl.CreateSomeContext()
q := cl.NewQueue(ctx)
var bufs []*cl.Buffer
fmt.Println("filling")
for i := 0; i < 12; i++ {
	b := cl.NewBufferSize(ctx, cl.ReadWrite, 256<<20)
	cl.EnqueueFill(q, b, float32(1)).Wait()
	bufs = append(bufs, b)
}`, before: "filling", want: []string{"SIGABRT", "allocation", "memory limit of 2 GiB", "GOCL_MEMORY_LIMIT"}},
	{name: "panic in a net/http goroutine", cell: `import ("io"; "net/http"; "net/http/httptest")
type bad struct{}
func (bad) Read(p []byte) (int, error) { panic("reader exploded") }
srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.Copy(io.Discard, r.Body) }))
fmt.Println("posting")
http.Post(srv.URL, "text/plain", bad{})`, before: "posting", want: []string{"reader exploded", "goroutine"}},
	{name: "out-of-bounds write in an OpenCL kernel", setup: `ctx := cl.CreateSomeContext()
q := cl.NewQueue(ctx)
buf := cl.NewBufferSize(ctx, cl.ReadWrite, 16)
prog := cl.BuildProgram(ctx, "__kernel void k(__global int *x) { x[get_global_id(0) * 1000000000L + 4000000000L] = 1; }", "")
k := prog.Kernel("k")
k.SetArgs(buf)`, cell: "fmt.Println(\"launching\")\ncl.EnqueueKernel(q, k, []int{64}, nil).Wait()",
		before: "launching", want: []string{"SIGSEGV", "out of bounds"}},
	{name: "PinnedHost view after Close", setup: `ctx := cl.CreateSomeContext()
q := cl.NewQueue(ctx)
p := cl.NewPinnedHost(q, 64<<20)
v := p.Bytes()
p.Close()`, cell: "fmt.Println(\"writing\")\nfor i := range v { v[i] = 1 }",
		before: "writing", want: []string{"fault", "SIGSEGV", "closed cl.PinnedHost"}},
}

// crashEvidenceMissing lists what a crash cell's error and output lack.
func crashEvidenceMissing(t *testing.T, c crashCase, outs []*wire.Message, errs []*wire.Message) []string {
	t.Helper()
	if len(errs) != 1 {
		return []string{fmt.Sprintf("%d error outputs, want 1", len(errs))}
	}
	var missing []string
	e := decode(t, errs[0])
	text := fmt.Sprint(e["evalue"], e["traceback"])
	for _, w := range append(c.want, "values", "kept") {
		if !strings.Contains(text, w) {
			missing = append(missing, fmt.Sprintf("the error lacks %q:\n%s", w, text))
		}
	}
	if c.before != "" && !strings.Contains(stream(t, outs, "stdout"), c.before) {
		missing = append(missing, fmt.Sprintf("output printed before the crash was lost: %v", outs))
	}
	return missing
}

func TestEngineCrashesAreExplained(t *testing.T) {
	for _, c := range crashCases {
		t.Run(c.name, func(t *testing.T) {
			k := startKernel(t, c.env...)
			stopHB := heartbeat(k)
			k.execute("func kept(a int) int { return a * 3 }\nlost := 5", nil)
			if c.setup != "" {
				if rep, outs := k.execute(c.setup, nil); rep["status"] != "ok" {
					t.Fatalf("setup: %v %v", rep, outs)
				}
			}
			before := enginePIDs(k.cmd.Process.Pid)
			t0 := time.Now()
			rep, outs := k.execute(c.cell, nil)
			crashed := time.Since(t0)
			if rep["status"] != "error" || rep["ename"] != "EngineCrash" {
				t.Fatalf("reply = %v, outputs %v", rep, outs)
			}
			errs := ofType(outs, "error")
			if len(errs) != 1 {
				t.Fatalf("%d error outputs, want 1: %v", len(errs), outs)
			}
			// The evidence is gathered from a dying process, and on a
			// loaded machine a piece of it is sometimes lost (a known race
			// of the crash report's capture, see the supervisor): the crash
			// is tried again, up to three times, before that fails the test.
			missing := crashEvidenceMissing(t, c, outs, errs)
			extra := 0 // cells the retries ran
			for try := 2; len(missing) > 0 && try <= 3; try++ {
				t.Logf("try %d: %s", try-1, strings.Join(missing, "; "))
				if c.setup != "" {
					extra++
					if rep, outs := k.execute(c.setup, nil); rep["status"] != "ok" {
						t.Fatalf("setup again: %v %v", rep, outs)
					}
				}
				_, outs = k.execute(c.cell, nil)
				extra++
				missing = crashEvidenceMissing(t, c, outs, ofType(outs, "error"))
			}
			for _, m := range missing {
				t.Error(m)
			}
			if strings.Contains(stream(t, outs, "stderr"), "goroutine ") {
				t.Errorf("the crash report leaked into the cell's stderr: %q", stream(t, outs, "stderr"))
			}
			t1 := time.Now()
			rep, outs = k.execute("kept(14)", nil)
			t.Logf("crash cell %v; next cell served %v after the crash reply", crashed, time.Since(t1))
			res := ofType(outs, "execute_result")
			if rep["status"] != "ok" || len(res) != 1 || decode(t, res[0])["data"].(map[string]any)["text/plain"] != "42" {
				t.Fatalf("the next cell did not run with the redeclared func: %v %v", rep, outs)
			}
			if rep["execution_count"].(float64) != float64(3+btoi(c.setup != "")+extra) {
				t.Errorf("execution_count = %v: counting did not go on", rep["execution_count"])
			}
			rep, outs = k.execute("lost", nil)
			if rep["status"] != "error" {
				t.Errorf("a value survived the crash: %v %v", rep, outs)
			}
			if now := enginePIDs(k.cmd.Process.Pid); len(before) != 1 || len(now) != 1 || now[0] == before[0] {
				t.Errorf("engine processes before %v, after %v: want one, replaced", before, now)
			}
			if missed := stopHB(); missed > 0 {
				t.Errorf("%d heartbeats went unanswered", missed)
			}
			expectEngineGone(t, k)
		})
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestEngineKilledFromOutside kills the engine with SIGKILL while a cell runs.
func TestEngineKilledFromOutside(t *testing.T) {
	k := startKernel(t)
	stopHB := heartbeat(k)
	pids := enginePIDs(k.cmd.Process.Pid)
	if len(pids) != 1 {
		t.Fatalf("engine processes: %v", pids)
	}
	if adj, _ := os.ReadFile(fmt.Sprintf("/proc/%d/oom_score_adj", pids[0])); strings.TrimSpace(string(adj)) != "500" {
		t.Errorf("the engine's oom_score_adj is %q, want 500: the OOM killer would not take it first", adj)
	}
	go func() {
		time.Sleep(500 * time.Millisecond)
		syscall.Kill(pids[0], syscall.SIGKILL)
	}()
	rep, outs := k.execute("fmt.Println(\"waiting\")\ntime.Sleep(30 * time.Second)", nil)
	errs := ofType(outs, "error")
	if rep["status"] != "error" || len(errs) != 1 || !strings.Contains(fmt.Sprint(decode(t, errs[0])["evalue"]), "SIGKILL") {
		t.Fatalf("reply %v outputs %v", rep, outs)
	}
	if !strings.Contains(stream(t, outs, "stdout"), "waiting") {
		t.Errorf("output before the kill was lost: %v", outs)
	}
	rep, _ = k.execute("1 + 1", nil)
	if rep["status"] != "ok" || rep["execution_count"].(float64) != 2 {
		t.Errorf("next cell: %v", rep)
	}
	if missed := stopHB(); missed > 0 {
		t.Errorf("%d heartbeats went unanswered", missed)
	}
	expectEngineGone(t, k)
}

// TestInterruptDuringWaitGroup interrupts a cell blocked in wg.Wait (a
// compiled call that cannot be stopped): the next cell, which releases it,
// runs with a warning, and values are kept. A second interrupt within a few
// seconds of a stuck statement replaces the engine.
func TestInterruptDuringWaitGroup(t *testing.T) {
	k := startKernel(t)
	stopHB := heartbeat(k)
	k.execute("var wg sync.WaitGroup\nwg.Add(1)\nkept := 7", nil)
	go func() {
		time.Sleep(400 * time.Millisecond)
		k.request(k.control, "interrupt_request", map[string]any{}, 10*time.Second, false)
	}()
	rep, outs := k.execute("wg.Wait()", nil)
	if rep["status"] != "error" || rep["ename"] != "Interrupted" {
		t.Fatalf("interrupted wg.Wait: %v %v", rep, outs)
	}
	time.Sleep(doubleInterruptGap) // a later interrupt is a new one
	rep, outs = k.execute("wg.Done()\nkept * 6", nil)
	res := ofType(outs, "execute_result")
	if rep["status"] != "ok" || len(res) != 1 || decode(t, res[0])["data"].(map[string]any)["text/plain"] != "42" {
		t.Fatalf("the cell that releases the stuck one did not run: %v %v", rep, outs)
	}
	if !strings.Contains(stream(t, outs, "stderr"), "still blocked") {
		t.Errorf("no warning about the blocked statement: %v", outs)
	}

	// Stuck again; this time two interrupts replace the engine.
	before := enginePIDs(k.cmd.Process.Pid)
	k.execute("var wg2 sync.WaitGroup\nwg2.Add(1)", nil)
	interrupted := make(chan struct{})
	go func() {
		defer close(interrupted)
		time.Sleep(400 * time.Millisecond)
		k.request(k.control, "interrupt_request", map[string]any{}, 10*time.Second, false)
		time.Sleep(300 * time.Millisecond)
		k.request(k.control, "interrupt_request", map[string]any{}, 10*time.Second, false)
	}()
	rep, _ = k.execute("wg2.Wait()", nil)
	if rep["status"] != "error" {
		t.Fatalf("stuck cell: %v", rep)
	}
	<-interrupted
	rep, outs = k.execute("1 + 2", nil)
	if rep["status"] != "ok" || !strings.Contains(stream(t, outs, "stderr"), "replaced after a second interrupt") {
		t.Fatalf("cell after the replaced engine: %v %v", rep, outs)
	}
	if now := enginePIDs(k.cmd.Process.Pid); len(now) != 1 || len(before) != 1 || now[0] == before[0] {
		t.Errorf("engine before %v, after %v: want it replaced", before, now)
	}
	if missed := stopHB(); missed > 0 {
		t.Errorf("%d heartbeats went unanswered", missed)
	}
	expectEngineGone(t, k)
}

// doubleInterruptGap is longer than the supervisor's window for a second
// interrupt (kernel/supervisor doubleInterrupt).
const doubleInterruptGap = 5500 * time.Millisecond

// TestRestartFreesTheOldEngine restarts the kernel while a statement is
// stuck in a compiled call: the old engine process is gone, a new one
// serves, and nothing of the old session is left.
func TestRestartFreesTheOldEngine(t *testing.T) {
	k := startKernel(t)
	k.execute("var wg sync.WaitGroup\nwg.Add(1)\nold := 1", nil)
	before := enginePIDs(k.cmd.Process.Pid)
	stuck := k.send(k.shell, "execute_request", map[string]any{"code": "wg.Wait()", "silent": false, "store_history": true,
		"user_expressions": map[string]any{}, "allow_stdin": false, "stop_on_error": true})
	time.Sleep(300 * time.Millisecond)
	r := k.request(k.control, "shutdown_request", map[string]any{"restart": true}, 30*time.Second, false)
	if c := decode(t, r); c["status"] != "ok" || c["restart"] != true {
		t.Fatalf("shutdown_reply = %v", c)
	}
	for { // the stuck cell ends (interrupted by the restart) before the next one is sent
		m := k.recv(k.shell, 30*time.Second)
		if m == nil {
			t.Fatal("the stuck cell got no reply after the restart")
		}
		if m.ParentHeader != nil && m.ParentHeader.MsgID == stuck {
			break
		}
	}
	k.waitIdle(stuck, 10*time.Second)
	deadline := time.Now().Add(5 * time.Second)
	for len(before) == 1 && alive(before[0]) {
		if time.Now().After(deadline) {
			t.Fatalf("the old engine process %d survived the restart", before[0])
		}
		time.Sleep(20 * time.Millisecond)
	}
	rep, outs := k.execute("old", nil)
	if rep["status"] != "error" {
		t.Errorf("a value survived the restart: %v %v", rep, outs)
	}
	rep, _ = k.execute("1 + 1", nil)
	if rep["status"] != "ok" || rep["execution_count"].(float64) != 2 {
		t.Errorf("after the restart: %v", rep)
	}
	if now := enginePIDs(k.cmd.Process.Pid); len(now) != 1 || len(before) != 1 || now[0] == before[0] {
		t.Errorf("engine before %v, after %v", before, now)
	}
	expectEngineGone(t, k)
}

// TestClosingStdoutKeepsOutput closes os.Stdout in a cell: output goes on
// reaching the cell, a file the cell opens next receives none of it, and the
// next cell has a working os.Stdout again.
func TestClosingStdoutKeepsOutput(t *testing.T) {
	k := startKernel(t)
	path := filepath.Join(t.TempDir(), "user.txt")
	rep, outs := k.execute(fmt.Sprintf("os.Stdout.Close()\nfmt.Println(\"still here\")\nf, _ := os.Create(%q)\n"+
		"fmt.Println(\"after open\")\nf.Close()", path), nil)
	if rep["status"] != "ok" || stream(t, outs, "stdout") != "still here\nafter open\n" {
		t.Fatalf("reply %v, outputs %v", rep, outs)
	}
	if b, err := os.ReadFile(path); err != nil || len(b) != 0 {
		t.Errorf("the user's file got %q (%v)", b, err)
	}
	rep, outs = k.execute("os.Stdout.WriteString(\"next\\n\")\nfmt.Fprintln(os.Stderr, \"err\")", nil)
	if rep["status"] != "ok" || stream(t, outs, "stdout") != "next\n" || stream(t, outs, "stderr") != "err\n" {
		t.Errorf("the next cell's os.Stdout: %v %v", rep, outs)
	}
}

// TestRunReportsACrashingCell runs a notebook whose second cell kills the
// engine: gocl run names the cell and the cause, and the third cell runs in
// a fresh engine with the first cell's func declared again.
func TestRunReportsACrashingCell(t *testing.T) {
	dir := t.TempDir()
	nb := map[string]any{"nbformat": 4, "nbformat_minor": 5, "metadata": map[string]any{}, "cells": []any{
		map[string]any{"cell_type": "code", "metadata": map[string]any{}, "outputs": []any{}, "execution_count": nil,
			"source": "func twice(a int) int { return 2 * a }"},
		map[string]any{"cell_type": "code", "metadata": map[string]any{}, "outputs": []any{}, "execution_count": nil,
			"source": "var mu sync.Mutex\nmu.Unlock()"},
		map[string]any{"cell_type": "code", "metadata": map[string]any{}, "outputs": []any{}, "execution_count": nil,
			"source": "twice(21)"},
	}}
	raw, _ := json.Marshal(nb)
	if err := os.WriteFile(filepath.Join(dir, "crash.ipynb"), raw, 0o644); err != nil {
		t.Fatal(err)
	}
	status, stdout, stderr := goclRun(t, dir, "--allow-errors", "crash.ipynb", "-o", "out.ipynb")
	if status != 0 {
		t.Fatalf("gocl run exited %d\n%s\n%s", status, stdout, stderr)
	}
	all := strings.ToLower(stdout + stderr)
	for _, w := range []string{"cell 2 error", "enginecrash", "unlock of", "mutex", "out[3]: 42"} {
		if !strings.Contains(all, w) {
			t.Errorf("gocl run's report lacks %q:\n%s", w, all)
		}
	}
	out := readJSON(t, filepath.Join(dir, "out.ipynb"))
	cells := out["cells"].([]any)
	// The dying runtime writes its headline to the cell's stderr; a part of
	// it may reach the notebook as a stream before the engine's death is
	// seen. What must hold: the cell ends with exactly one error, the
	// EngineCrash, and anything before it is stderr.
	outs := cells[1].(map[string]any)["outputs"].([]any)
	if len(outs) == 0 || outs[len(outs)-1].(map[string]any)["ename"] != "EngineCrash" {
		t.Fatalf("the crashing cell's outputs do not end with an EngineCrash: %v", outs)
	}
	for _, o := range outs[:len(outs)-1] {
		if m := o.(map[string]any); m["output_type"] != "stream" || m["name"] != "stderr" {
			t.Errorf("the crashing cell has an output other than stderr before its EngineCrash: %v", outs)
		}
	}
}

// TestEngineDiesBetweenCells lets a goroutine of a finished cell kill the
// engine: a fresh one is started at once, and the next cell says why.
func TestEngineDiesBetweenCells(t *testing.T) {
	k := startKernel(t)
	// As in TestEngineCrashesAreExplained, the headline of a dying
	// runtime is sometimes lost on a loaded machine: up to three tries.
	var problem string
	for try := 1; try <= 3; try++ {
		before := enginePIDs(k.cmd.Process.Pid)
		rep, _ := k.execute("go func() { time.Sleep(300 * time.Millisecond); var mu sync.Mutex; mu.Unlock() }()", nil)
		if rep["status"] != "ok" {
			t.Fatalf("reply %v", rep)
		}
		deadline := time.Now().Add(10 * time.Second)
		for len(before) == 1 && alive(before[0]) {
			if time.Now().After(deadline) {
				t.Fatal("the engine did not die (hang guard)")
			}
			time.Sleep(20 * time.Millisecond)
		}
		time.Sleep(200 * time.Millisecond)
		rep, outs := k.execute("1 + 1", nil)
		if rep["status"] != "ok" {
			t.Fatalf("next cell: %v %v", rep, outs)
		}
		problem = ""
		if !strings.Contains(stream(t, outs, "stderr"), "unlock of unlocked mutex") ||
			!strings.Contains(stream(t, outs, "stderr"), "after the last cell") {
			problem = fmt.Sprintf("next cell's stderr: %q", stream(t, outs, "stderr"))
		}
		if problem == "" {
			break
		}
		t.Logf("try %d: %s", try, problem)
	}
	if problem != "" {
		t.Error(problem)
	}
	expectEngineGone(t, k)
}

// TestDoubleInterruptOfALoopKeepsValues interrupts an interpreted loop twice
// in quick succession (a double click): the loop stops, and since no
// statement was stuck, the engine and its values stay.
func TestDoubleInterruptOfALoopKeepsValues(t *testing.T) {
	k := startKernel(t)
	k.execute("kept := 3", nil)
	before := enginePIDs(k.cmd.Process.Pid)
	sent := make(chan struct{})
	go func() {
		defer close(sent)
		time.Sleep(400 * time.Millisecond)
		k.send(k.control, "interrupt_request", map[string]any{})
		time.Sleep(30 * time.Millisecond)
		k.send(k.control, "interrupt_request", map[string]any{})
	}()
	rep, _ := k.execute("for {}", nil)
	<-sent
	if rep["ename"] != "Interrupted" {
		t.Fatalf("reply %v", rep)
	}
	// The second interrupt may still be on its way through the control
	// channel; sent before the next cell, it would stop that cell (as a
	// third click on the button would), which is not what this test is
	// about: let it arrive while the kernel is idle.
	time.Sleep(300 * time.Millisecond)
	rep, outs := k.execute("kept", nil)
	res := ofType(outs, "execute_result")
	if rep["status"] != "ok" || len(res) != 1 || decode(t, res[0])["data"].(map[string]any)["text/plain"] != "3" {
		t.Errorf("values lost after a double interrupt: %v %v", rep, outs)
	}
	if now := enginePIDs(k.cmd.Process.Pid); len(now) != 1 || len(before) != 1 || now[0] != before[0] {
		t.Errorf("engine before %v, after %v: want it kept", before, now)
	}
}
