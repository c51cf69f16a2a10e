package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/seed43a1e1ab/gocl/kernel/wire"
)

// The replay tests crash the engine on purpose and look at what the fresh
// engine declared again: only declarations, never a main, an init or a
// statement; every name as it was before, or refused with the cell to run
// again; never a zero value or an older declaration.

// crashCell kills the engine process (a fatal error of the Go runtime).
const crashCell = "var crashMu sync.Mutex\ncrashMu.Unlock()"

// crash runs crashCell and checks that the engine died of it.
func (k *kernel) crash() {
	k.t.Helper()
	rep, outs := k.executeWithin(crashCell, 60*time.Second)
	if rep == nil || rep["status"] != "error" || rep["ename"] != "EngineCrash" {
		k.t.Fatalf("the crash cell: %v %v", rep, outs)
	}
}

// executeWithin runs a cell and returns its reply and outputs, or a nil
// reply when none came within timeout (a wedged kernel).
func (k *kernel) executeWithin(code string, timeout time.Duration) (map[string]any, []*wire.Message) {
	k.t.Helper()
	content := map[string]any{"code": code, "silent": false, "store_history": true, "user_expressions": map[string]any{},
		"allow_stdin": false, "stop_on_error": true}
	r := k.request(k.shell, "execute_request", content, timeout, true)
	if r == nil {
		return nil, nil
	}
	k.waitIdle(r.ParentHeader.MsgID, 10*time.Second)
	return decode(k.t, r), k.outputs(r.ParentHeader.MsgID)
}

// result is the text/plain of a cell that must succeed.
func (k *kernel) result(code string) string {
	k.t.Helper()
	rep, outs := k.executeWithin(code, 60*time.Second)
	if rep == nil || rep["status"] != "ok" {
		k.t.Fatalf("%s: %v %v", code, rep, outs)
	}
	res := ofType(outs, "execute_result")
	if len(res) != 1 {
		return ""
	}
	return fmt.Sprint(decode(k.t, res[0])["data"].(map[string]any)["text/plain"])
}

// refused runs a cell that must fail, and returns its error text.
func (k *kernel) refused(code string) string {
	k.t.Helper()
	rep, outs := k.executeWithin(code, 60*time.Second)
	if rep == nil {
		k.t.Fatalf("%s: no reply", code)
	}
	if rep["status"] == "ok" {
		k.t.Errorf("%s after the crash gave %q, want an error that says it was lost", code, stream(k.t, outs, "stdout")+
			fmt.Sprint(ofType(outs, "execute_result")))
		if res := ofType(outs, "execute_result"); len(res) == 1 {
			return "ok: " + fmt.Sprint(decode(k.t, res[0])["data"])
		}
		return "ok"
	}
	return fmt.Sprint(rep["ename"], ": ", rep["evalue"])
}

// TestCrashReplayRunsNoMainNorInit pastes a program whose init and main
// append to a file: two crashes later the file still has their two lines,
// as go run would leave it, and the program's funcs are there.
func TestCrashReplayRunsNoMainNorInit(t *testing.T) {
	log := filepath.Join(t.TempDir(), "log")
	k := startKernel(t)
	rep, outs := k.execute(fmt.Sprintf(`package main

import (
	"fmt"
	"os"
)

func init() { note("init") }

func note(s string) {
	f, err := os.OpenFile(%q, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		panic(err)
	}
	fmt.Fprintln(f, s)
	f.Close()
}

func main() { note("main") }
`, log), nil)
	if rep["status"] != "ok" {
		t.Fatalf("the program: %v %v", rep, outs)
	}
	for i := 0; i < 2; i++ {
		k.crash()
		k.result("1 + 1")
	}
	if b, _ := os.ReadFile(log); string(b) != "init\nmain\n" {
		t.Errorf("after two crashes the file has %q, want %q: the replay ran main or init", b, "init\nmain\n")
	}
	k.result(`note("after")`)
	if b, _ := os.ReadFile(log); string(b) != "init\nmain\nafter\n" {
		t.Errorf("the program's func note after the crashes: the file has %q", b)
	}
}

// TestCrashReplayOfABlockingMain interrupts a main that serves forever (a
// pasted server), then crashes the engine: the next cell is served, and
// kernel_info answered, instead of a replay that runs main again and never
// returns.
func TestCrashReplayOfABlockingMain(t *testing.T) {
	k := startKernel(t)
	go func() {
		time.Sleep(time.Second)
		k.send(k.control, "interrupt_request", map[string]any{})
	}()
	rep, outs := k.executeWithin("func main() {\n\tfmt.Println(\"serving\")\n\tfor {\n\t\ttime.Sleep(10 * time.Millisecond)\n\t}\n}", 30*time.Second)
	if rep == nil || rep["ename"] != "Interrupted" {
		t.Fatalf("the serving cell: %v %v", rep, outs)
	}
	k.result("func kept() int { return 7 }")
	k.crash()
	rep, outs = k.executeWithin("kept()", 30*time.Second)
	if rep == nil {
		t.Fatal("no reply to the cell after the crash within 30 s: the replay ran the blocking main")
	}
	if rep["status"] != "ok" || len(ofType(outs, "execute_result")) != 1 {
		t.Errorf("the cell after the crash: %v %v", rep, outs)
	}
	if r := k.request(k.shell, "kernel_info_request", map[string]any{}, 10*time.Second, true); r == nil {
		t.Error("kernel_info unanswered after the crash")
	}
}

// TestCrashReplayOfAMainThatCrashes declares a main that crashes only once
// a file exists: after another cell crashes the engine, later cells run,
// instead of each being blamed for the crash of a replayed main.
func TestCrashReplayOfAMainThatCrashes(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "armed")
	k := startKernel(t)
	k.result(fmt.Sprintf("func main() {\n\tif _, err := os.Stat(%q); err == nil {\n\t\tvar mu sync.Mutex\n\t\tmu.Unlock()\n\t}\n}\n1", marker))
	if err := os.WriteFile(marker, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	k.crash()
	for i := 0; i < 2; i++ {
		rep, outs := k.executeWithin("2 + 2", 60*time.Second)
		if rep == nil || rep["status"] != "ok" {
			t.Fatalf("cell %d after the crash: %v %v", i+1, rep, outs)
		}
	}
}

// TestCrashGivesNoWrongAnswers declares funcs that read variables, a const
// redefined by a variable and a func replaced by a func value, then
// crashes the engine: each name works as before or is refused, saying
// which cell to run again; none gives a zero value or an older meaning.
func TestCrashGivesNoWrongAnswers(t *testing.T) {
	k := startKernel(t)
	for _, c := range []string{
		"func kept(a int) int { return a * 3 }",
		"import m \"math\"\nimport \"unsafe\"",
		"name := \"Ada\"\nfunc Name() string { return name }",
		"primes := []int{2, 3, 5}\nfunc First() int { return primes[0] }",
		"const scale = 2",
		"scale := 10",
		"func f() int { return scale * 3 }",
		"func g() int { return 1 }",
		"g := func() int { return 2 }",
		"type P struct{ X int }\nsep := \"|\"\nfunc (p P) String() string { return sep + fmt.Sprint(p.X) }",
		// A use the replay's plan does not see (a map key): declaring
		// it again fails, and it is dropped with a note.
		"key := \"a\"\nfunc Lookup() map[string]int { return map[string]int{key: 1} }",
		// Declarations redefined by declarations: the replay makes them
		// in the same order, so each answers as before.
		"func v() int { return 1 }",
		"func w() int { return v() * 10 }",
		"func v() int { return 2 }",
	} {
		k.result(c)
	}
	wBefore := k.result("w()")
	before := map[string]string{"Name()": `"Ada"`, "First()": "2", "f()": "30", "g()": "2", "fmt.Sprint(P{4})": `"|4"`,
		"Lookup()": "map[a:1]"}
	for code, want := range before {
		if got := k.result(code); got != want {
			t.Fatalf("%s before the crash = %s, want %s", code, got, want)
		}
	}
	k.crash()
	rep, outs := k.executeWithin("kept(14)", 60*time.Second)
	if res := ofType(outs, "execute_result"); rep == nil || len(res) != 1 || decode(t, res[0])["data"].(map[string]any)["text/plain"] != "42" {
		t.Errorf("kept(14) after the crash: %v %v", rep, outs)
	}
	if note := stream(t, outs, "stderr"); !strings.Contains(note, "Lookup") || !strings.Contains(note, "could not be declared again") {
		t.Errorf("the first cell after the crash has no note of the declaration that failed to be made again: %q", note)
	}
	if got := k.result("w()"); got != wBefore {
		t.Errorf("w() after the crash = %s, before %s", got, wBefore)
	}
	if got := k.result("fmt.Sprint(m.Sqrt(16), unsafe.Sizeof(int32(0)))"); got != `"4 4"` {
		t.Errorf("the cells' imports after the crash: %s", got)
	}
	for code := range before {
		got := k.refused(code)
		if !strings.Contains(got, "lost in the crash of cell") || !strings.Contains(got, "run that cell again") {
			t.Errorf("%s after the crash: %s\nwant it refused: lost in the crash of cell N; run that cell again", code, got)
		}
	}
	if got := k.refused("First()"); !strings.Contains(got, "primes") {
		t.Errorf("First() after the crash does not name the lost global it uses: %s", got)
	}
	// Running the cell again brings the name back.
	k.result("g := func() int { return 2 }")
	if got := k.result("g()"); got != "2" {
		t.Errorf("g() after its cell ran again = %s", got)
	}
}

// TestWidgetCallbackCrashIsShown crashes the engine from a slider's
// callback: the next cell the user runs says so, with the cause.
func TestWidgetCallbackCrashIsShown(t *testing.T) {
	k := startKernel(t)
	_, outs := k.execute("s := widgets.NewIntSlider(\"n\", 0, 10, 1)\ns.OnChange(func(v int) { var mu sync.Mutex; mu.Unlock() })\nwidgets.Show(s)", nil)
	var slider string
	for _, m := range ofType(outs, "display_data") {
		data := decode(t, m)["data"].(map[string]any)
		if v, ok := data[viewMIME].(map[string]any); ok && strings.HasPrefix(fmt.Sprint(data["text/plain"]), "IntSlider") {
			slider = v["model_id"].(string)
		}
	}
	if slider == "" {
		t.Fatalf("the slider was not shown: %v", outs)
	}
	k.commSend("comm_msg", map[string]any{"comm_id": slider,
		"data": map[string]any{"method": "update", "state": map[string]any{"value": 5}, "buffer_paths": []any{}}})
	rep, outs := k.executeWithin("1 + 1", 60*time.Second)
	if rep == nil || rep["status"] != "ok" {
		t.Fatalf("the next cell: %v %v", rep, outs)
	}
	// The cause: the runtime's headline or, when a dying runtime's
	// headline is lost among its pipes, the cause told by its trace.
	errText := stream(t, outs, "stderr")
	if !strings.Contains(errText, "widget callback") ||
		!strings.Contains(errText, "unlock of unlocked mutex") && !strings.Contains(errText, "misuse of package sync") {
		t.Errorf("the next cell does not say that a widget callback crashed the engine, and why: stderr %q", errText)
	}
}

// TestCompiledCellSurvivesACrash crashes the engine after a compiled cell:
// the fresh engine loads the same plugin from the cache (nothing is built
// again), and the cell's funcs are compiled code as before (interpreted,
// unsafe.Sizeof would give 0).
func TestCompiledCellSurvivesACrash(t *testing.T) {
	cache := t.TempDir()
	k := startKernel(t, "GOCL_MODDIR="+t.TempDir(), "GOCL_PLUGIN_CACHE="+cache)
	k.result("//gocl:compile\nimport \"unsafe\"\n\nfunc WordSize() uintptr { return unsafe.Sizeof(uintptr(0)) }")
	if got := k.result("WordSize()"); got != "0x8" && got != "8" {
		t.Fatalf("WordSize() before the crash = %s", got)
	}
	plugins := func() []string {
		var out []string
		filepath.Walk(cache, func(p string, info os.FileInfo, err error) error {
			if err == nil && strings.HasSuffix(p, ".so") {
				out = append(out, p)
			}
			return nil
		})
		return out
	}
	before := plugins()
	k.crash()
	if got := k.result("WordSize()"); got != "0x8" && got != "8" {
		t.Errorf("WordSize() after the crash = %s, want 8 as before (the compiled cell came back interpreted?)", got)
	}
	if after := plugins(); len(after) != len(before) {
		t.Errorf("the replay built the compiled cell again: plugins %v, then %v", before, after)
	}
	// A later compiled cell that uses it: TestCompiledCellUsesCachedCell.
}

// TestSegfaultsAlwaysExplained crashes the engine again and again, with a
// wild write from Go code through unsafe and with an OpenCL kernel whose
// work-groups write out of bounds at once: each work-group's first item
// waits (a bounded spin) until the other work-group has started, so that two
// of PoCL's threads fault within the same microseconds. Every time the cell
// names the signal and, for C code, the library, and the next cell is
// served.
//
// Two threads faulting together used to lose the cause in about one crash
// in three: PoCL's LLVM replaces the engine's SIGSEGV handler with a
// one-shot one (SA_RESETHAND), so the first fault reset the handler for the
// whole process and the second killed it before any handler ran
// (kernel/enginehost/faultname).
func TestSegfaultsAlwaysExplained(t *testing.T) {
	k := startKernel(t)
	k.result("import \"unsafe\"\n1")
	cells := []struct{ code, want string }{
		{"p := (*int)(unsafe.Pointer(uintptr(0xdead0000)))\n*p = 1", "SIGSEGV"},
		{`ctx := cl.CreateSomeContext()
q := cl.NewQueue(ctx)
buf := cl.NewBufferSize(ctx, cl.ReadWrite, 16)
started := cl.NewBuffer(ctx, cl.ReadWrite|cl.CopyHostPtr, make([]int32, 4))
prog := cl.BuildProgram(ctx, ` + "`" + `__kernel void k(__global int *x, __global volatile int *started, int lag) {
	if (get_local_id(0) == 0) {
		if (atomic_inc(started) == 1) {
			for (int i = 0; i < lag; i++) { (void)*started; }
		} else {
			for (long i = 0; i < 1000000000L && *started < 2; i++) {}
		}
	}
	x[get_global_id(0) * 1000000000L + 4000000000L] = 1;
}` + "`" + `, "")
kk := prog.Kernel("k")
kk.SetArgs(buf, started, int32(LAG))
cl.EnqueueKernel(q, kk, []int{256}, []int{128}).Wait()`, "SIGSEGV in /"},
	}
	for i := 0; i < 12; i++ {
		c := cells[min(i%4, 1)] // one wild write, three kernels
		// The second work-group faults a little later than the first,
		// by 0 to about 10 us, in the window where the first one's fault
		// is being handled.
		rep, outs := k.executeWithin(strings.Replace(c.code, "LAG", strconv.Itoa(i*1000), 1), 60*time.Second)
		if rep == nil {
			t.Fatalf("crash %d: no reply", i)
		}
		ev := fmt.Sprint(rep["evalue"])
		if rep["ename"] != "EngineCrash" || !strings.Contains(ev, c.want) || strings.Contains(ev, "gocl-fault") {
			t.Errorf("crash %d: %s: %s\nwant an EngineCrash naming %q (stderr %q)", i, rep["ename"], ev, c.want, stream(t, outs, "stderr"))
		}
		if rep, outs := k.executeWithin("1 + 1", 30*time.Second); rep == nil || rep["status"] != "ok" {
			t.Fatalf("crash %d: the next cell was not served: %v %v", i, rep, outs)
		}
	}
}

// TestFaultHandlersStayOnceOpenCLIsSetUp is TestSegfaultsAlwaysExplained's
// cause checked without its timing: once OpenCL has set up its devices (PoCL
// starts LLVM, which installs one-shot crash handlers) and a kernel ran, the
// handler of SIGSEGV, SIGBUS and SIGILL is not one-shot (SA_RESETHAND), so a
// second thread's fault still finds a handler that reports it.
func TestFaultHandlersStayOnceOpenCLIsSetUp(t *testing.T) {
	k := startKernel(t)
	k.result("import (\"syscall\"; \"unsafe\")\n1")
	out := k.result(`ctx := cl.CreateSomeContext()
q := cl.NewQueue(ctx)
buf := cl.NewBufferSize(ctx, cl.ReadWrite, 64)
kk := cl.BuildProgram(ctx, "__kernel void k(__global int *x) { x[get_global_id(0)] = 1; }", "").Kernel("k")
kk.SetArgs(buf)
cl.EnqueueKernel(q, kk, []int{16}, nil).Wait()
oneShot := ""
for _, sig := range []syscall.Signal{syscall.SIGSEGV, syscall.SIGBUS, syscall.SIGILL} {
	var act [4]uint64 // the kernel's struct sigaction: handler, flags, restorer, mask
	syscall.RawSyscall6(syscall.SYS_RT_SIGACTION, uintptr(sig), 0, uintptr(unsafe.Pointer(&act[0])), 8, 0, 0)
	if act[1]&0x80000000 != 0 {
		oneShot += sig.String() + "; "
	}
}
"one-shot: " + oneShot`)
	if out != `"one-shot: "` {
		t.Errorf("after OpenCL ran a kernel, these faults have a one-shot handler (SA_RESETHAND), which loses the second of two faults: %s", out)
	}
}
