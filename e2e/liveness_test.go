package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A large display on a busy machine: publishing it kept the supervisor (the
// kernel process) away from its engine for seconds, and the engine, alive
// all along, was killed as "frozen" (a 200 MB display, 3 times in 5; issue
// 23): the cell failed and the session's values were lost. Here the kernel
// process runs at a low priority (nice 10) beside a spinning process per
// core, so that a 20 MB display keeps it away for seconds, as 200 MB did on
// a busy machine, while the engine keeps its priority and answers.
func TestBigDisplayOnABusyMachineKeepsTheEngine(t *testing.T) {
	k := startKernel(t)
	k.execute("keep := 7", nil)
	renice(t, k.cmd.Process.Pid, 10)
	for range runtime.NumCPU() {
		spin := exec.Command("/bin/sh", "-c", "while :; do :; done")
		if err := spin.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { spin.Process.Kill(); spin.Wait() })
	}
	t0 := time.Now()
	rep, outs := k.execute(`s := strings.Repeat("z", 20<<20)
display.Text(s)
s = ""`, nil)
	if rep["status"] != "ok" {
		t.Fatalf("the display cell failed (a live engine killed as frozen?): %v: %v", rep["ename"], rep["evalue"])
	}
	if n := len(ofType(outs, "display_data")); n != 1 {
		t.Errorf("got %d display_data messages, want 1", n)
	}
	t.Logf("20 MB display with the kernel starved of CPU: %v", time.Since(t0).Round(time.Millisecond))
	rep, _ = k.execute(`if keep != 7 { panic(keep) }`, nil)
	if rep["status"] != "ok" {
		t.Errorf("the session's values were lost: %v: %v", rep["ename"], rep["evalue"])
	}
	if strings.Contains(k.stderr.String(), "frozen") {
		t.Errorf("the engine was taken for frozen")
	}
}

// renice sets the nice value of every thread of process pid (Linux applies
// it per thread; threads made later inherit it), not of its children.
func renice(t *testing.T, pid, nice int) {
	tasks, err := filepath.Glob(fmt.Sprintf("/proc/%d/task/*", pid))
	if err != nil || len(tasks) == 0 {
		t.Skip("no /proc: cannot lower the kernel's priority")
	}
	for _, task := range tasks {
		tid, _ := strconv.Atoi(filepath.Base(task))
		if err := syscall.Setpriority(syscall.PRIO_PROCESS, tid, nice); err != nil && !os.IsNotExist(err) {
			t.Logf("renice thread %d: %v", tid, err)
		}
	}
}

// An engine that is truly frozen (SIGSTOP) is still found out and replaced:
// the liveness check that lets a busy kernel be must not let a dead engine
// hang the cell.
func TestFrozenEngineIsStillReplaced(t *testing.T) {
	k := startKernel(t)
	// The engine is the kernel's one child (any of its threads started it).
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", k.cmd.Process.Pid))
	if len(tasks) == 0 {
		t.Skip("no /proc children: cannot find the engine process")
	}
	var f []string
	for _, task := range tasks {
		b, _ := os.ReadFile(task)
		f = append(f, strings.Fields(string(b))...)
	}
	if len(f) != 1 {
		t.Skipf("the kernel has %d child processes, not one engine (GOCL_ENGINE=in-process?)", len(f))
	}
	engine, _ := strconv.Atoi(f[0])
	id := k.send(k.shell, "execute_request", map[string]any{"code": "time.Sleep(time.Minute)", "silent": false,
		"store_history": true, "user_expressions": map[string]any{}, "allow_stdin": false, "stop_on_error": true})
	time.Sleep(500 * time.Millisecond)
	if err := syscall.Kill(engine, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	defer syscall.Kill(engine, syscall.SIGKILL)
	m := k.recv(k.shell, 30*time.Second) // a guard: frozenAfter is 6 s
	if m == nil || m.ParentHeader.MsgID != id {
		t.Fatalf("no reply: a frozen engine hung the cell")
	}
	if rep := decode(t, m); rep["ename"] != "EngineCrash" || !strings.Contains(fmt.Sprint(rep["evalue"]), "stopped answering") {
		t.Errorf("reply = %v: %v, want the engine found frozen", rep["ename"], rep["evalue"])
	}
	if rep, _ := k.execute("1 + 1", nil); rep["status"] != "ok" {
		t.Errorf("no fresh engine after the frozen one: %v", rep)
	}
}
