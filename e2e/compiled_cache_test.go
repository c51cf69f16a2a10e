package e2e

// Compiled cells and other users: the plugin cache loads only plugins it
// can verify, build and cache files are private, a build stops whole when
// interrupted, and the build directory goes with the engine.

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestCompiledCacheOfOthers(t *testing.T) {
	shared := t.TempDir()
	os.Chmod(shared, 0o777) // a cache others may write, as a shared one is
	xdg, mod := t.TempDir(), t.TempDir()
	env := []string{"GOCL_PLUGIN_CACHE=" + shared, "XDG_CACHE_HOME=" + xdg, "GOCL_MODDIR=" + mod, goCache(t)}
	victim := "//gocl:compile\nfunc Seven() int { return 7 }\n"

	k := startKernel(t, env...)
	k.okResult(victim)
	sos, _ := filepath.Glob(filepath.Join(shared, "*.so"))
	if len(sos) != 1 {
		t.Fatalf("plugins in the cache: %v, want one", sos)
	}
	if fi, err := os.Stat(sos[0]); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the cached plugin's mode is %v, want 0600 (a compiled cell's constants are in it)", fi.Mode().Perm())
	}
	builds, _ := filepath.Glob(filepath.Join(xdg, "gocl", "gocl-cells-*"))
	if len(builds) != 1 {
		t.Fatalf("build directories: %v, want one", builds)
	}
	for _, d := range []string{filepath.Join(xdg, "gocl"), builds[0]} {
		if fi, err := os.Stat(d); err != nil || fi.Mode().Perm() != 0o700 {
			t.Errorf("%s: mode %v, want 0700", d, fi.Mode().Perm())
		}
	}
	filepath.WalkDir(builds[0], func(p string, d fs.DirEntry, err error) error {
		if fi, err := os.Lstat(p); err == nil && fi.Mode().Perm()&0o077 != 0 {
			t.Errorf("%s in the build directory has mode %v, open to others", p, fi.Mode().Perm())
		}
		return nil
	})
	// The build directory goes when the kernel shuts down.
	k.request(k.control, "shutdown_request", map[string]any{"restart": false}, 10*time.Second, false)
	select {
	case <-k.exited:
	case <-time.After(10 * time.Second):
		t.Fatal("the kernel did not exit after shutdown_request")
	}
	if left, _ := filepath.Glob(filepath.Join(xdg, "gocl", "gocl-cells-*")); len(left) != 0 {
		t.Errorf("build directories left after shutdown: %v", left)
	}

	// Another user plants a plugin of theirs, with a record that matches
	// it, under the victim's cell key.
	mine := t.TempDir()
	other := startKernel(t, "GOCL_PLUGIN_CACHE="+mine, "XDG_CACHE_HOME="+xdg, "GOCL_MODDIR="+mod, goCache(t))
	other.okResult("//gocl:compile\nfunc Seven() int { return 8 }\n")
	theirs, _ := filepath.Glob(filepath.Join(mine, "*.so"))
	if len(theirs) != 1 {
		t.Fatalf("the other plugin: %v", theirs)
	}
	planted, _ := os.ReadFile(theirs[0])
	key := strings.TrimSuffix(filepath.Base(sos[0]), ".so")
	sum := sha256.Sum256(planted)
	for name, data := range map[string][]byte{key + ".so": planted,
		key + ".sum": []byte("gocl plugin v1 " + key + " sha256:" + hex.EncodeToString(sum[:]) + "\n")} {
		p := filepath.Join(shared, name)
		os.Remove(p)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if os.Getuid() == 0 {
			os.Chown(p, 65534, 65534) // nobody's
		} else {
			os.Chmod(p, 0o666) // one anybody could have written
		}
	}
	// A build directory left by an engine that was killed goes when the
	// next engine starts, before any compiled cell.
	stale := filepath.Join(xdg, "gocl", "gocl-cells-stale")
	os.MkdirAll(filepath.Join(stale, "c1"), 0o700)
	os.WriteFile(filepath.Join(stale, "pid"), []byte(deadPID(t)), 0o600)
	again := startKernel(t, env...)
	again.okResult("1")
	if _, err := os.Stat(stale); err == nil {
		t.Errorf("a dead engine's build directory is still there after a new engine started")
	}
	again.okResult(victim)
	if got, _ := again.okResult("Seven()"); got != "7" {
		t.Errorf("Seven() = %s: the plugin planted in the cache was loaded, not the victim's own cell", got)
	}
}

// TestCompiledBuildInterrupted: an interrupted build leaves no compile or
// link running (killing go alone left its children to finish).
func TestCompiledBuildInterrupted(t *testing.T) {
	xdg := t.TempDir()
	k := startKernel(t, "GOCL_PLUGIN_CACHE=off", "XDG_CACHE_HOME="+xdg, "GOCL_MODDIR="+t.TempDir(), goCache(t))
	id := k.send(k.shell, "execute_request", map[string]any{"code": slowCell(int(time.Now().UnixNano() % 1000000)),
		"silent": false, "store_history": true, "user_expressions": map[string]any{}, "allow_stdin": false, "stop_on_error": true})
	tools := func() []string { return buildTools(t, "XDG_CACHE_HOME="+xdg) }
	deadline := time.Now().Add(120 * time.Second)
	busy := func() bool { // compile or link: go build itself is at work
		for _, p := range tools() {
			if !strings.HasPrefix(p, "go(") {
				return true
			}
		}
		return false
	}
	for !busy() {
		if time.Now().After(deadline) {
			t.Fatal("no compile or link seen in 120 s")
		}
		time.Sleep(20 * time.Millisecond)
	}
	seen := tools()
	k.request(k.control, "interrupt_request", map[string]any{}, 10*time.Second, false)
	m := k.recv(k.shell, 30*time.Second)
	if m == nil || m.ParentHeader.MsgID != id {
		t.Fatal("the interrupted build did not reply")
	}
	// Killed with their group, they are gone by the time the cell answers
	// (a few milliseconds to be reaped); left alone they compile on.
	left := tools()
	for i := 0; i < 3 && len(left) > 0; i++ {
		time.Sleep(30 * time.Millisecond)
		left = tools()
	}
	if c := decode(t, m); c["status"] == "ok" {
		t.Skipf("the build finished before the interrupt (saw %v)", seen)
	}
	if len(left) != 0 {
		t.Errorf("build processes still running after the interrupted cell answered: %v (at the interrupt: %v)", left, seen)
	}
}

// slowCell is a compiled cell big enough that its compile takes a while;
// salt makes it new to the go build cache.
func slowCell(salt int) string {
	var cell strings.Builder
	cell.WriteString("//gocl:compile\n")
	for i := 0; i < 3000; i++ {
		fmt.Fprintf(&cell, "func f%d(x []int) int { s := 0; for i, v := range x { s += v * i %% %d }; return s + %d }\n", i, i+1, salt)
	}
	return cell.String()
}

// TestCompiledBuildOrphaned: when the engine is killed mid-build, go dies
// with it and what go had started is killed when the next engine starts.
func TestCompiledBuildOrphaned(t *testing.T) {
	xdg := t.TempDir()
	k := startKernel(t, "GOCL_PLUGIN_CACHE=off", "XDG_CACHE_HOME="+xdg, "GOCL_MODDIR="+t.TempDir(), goCache(t))
	id := k.send(k.shell, "execute_request", map[string]any{"code": slowCell(int(time.Now().UnixNano() % 1000000)),
		"silent": false, "store_history": true, "user_expressions": map[string]any{}, "allow_stdin": false, "stop_on_error": true})
	mark := "XDG_CACHE_HOME=" + xdg
	deadline := time.Now().Add(120 * time.Second)
	for !strings.Contains(strings.Join(buildTools(t, mark), " "), "compile(") {
		if time.Now().After(deadline) {
			t.Fatal("no compile seen in 120 s")
		}
		time.Sleep(20 * time.Millisecond)
	}
	engine := childOf(t, k.cmd.Process.Pid)
	syscall.Kill(engine, syscall.SIGKILL)
	if m := k.recv(k.shell, 30*time.Second); m == nil || m.ParentHeader.MsgID != id {
		t.Fatal("the cell whose engine was killed did not reply")
	}
	k.execute("1", nil) // a new engine
	left := buildTools(t, mark)
	for i := 0; i < 10 && len(left) > 0; i++ {
		time.Sleep(30 * time.Millisecond)
		left = buildTools(t, mark)
	}
	if len(left) != 0 {
		t.Errorf("build processes of the killed engine still running: %v", left)
	}
}

// childOf returns the process id of pid's child.
func childOf(t *testing.T, pid int) int {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, st := range stats {
		raw, err := os.ReadFile(st)
		if err != nil {
			continue
		}
		s := string(raw)
		end := strings.LastIndexByte(s, ')')
		f := strings.Fields(s[end+1:])
		if len(f) > 1 && f[1] == fmt.Sprint(pid) {
			var child int
			fmt.Sscan(s, &child)
			return child
		}
	}
	t.Fatalf("process %d has no child", pid)
	return 0
}

// deadPID returns a process id that no process has.
func deadPID(t *testing.T) string {
	for pid := 4194000; pid > 1000; pid -= 977 {
		if _, err := os.Stat(fmt.Sprintf("/proc/%d", pid)); os.IsNotExist(err) {
			return fmt.Sprint(pid)
		}
	}
	t.Skip("no free process id found")
	return ""
}

// goCache is GOCACHE=the go build cache, so that a kernel given its own
// XDG_CACHE_HOME (to see its build directories) does not build everything
// from scratch.
func goCache(t *testing.T) string {
	out, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		t.Skipf("no go command: %v", err)
	}
	return "GOCACHE=" + strings.TrimSpace(string(out))
}

// buildTools lists the live go, compile and link processes whose
// environment holds mark.
func buildTools(t *testing.T, mark string) []string {
	var out []string
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, st := range stats {
		raw, err := os.ReadFile(st)
		if err != nil {
			continue
		}
		s := string(raw)
		open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || end < open {
			continue
		}
		comm, f := s[open+1:end], strings.Fields(s[end+1:])
		if comm != "go" && comm != "compile" && comm != "link" || len(f) == 0 || f[0] == "Z" {
			continue
		}
		env, err := os.ReadFile(filepath.Join(filepath.Dir(st), "environ"))
		if err != nil || !strings.Contains("\x00"+string(env)+"\x00", "\x00"+mark+"\x00") {
			continue
		}
		out = append(out, comm+"("+strings.TrimSpace(s[:open])+")")
	}
	return out
}
