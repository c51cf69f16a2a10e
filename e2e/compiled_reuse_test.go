package e2e

import (
	"path/filepath"
	"testing"
	"time"
)

// TestCompiledCellUsesCachedCell: a new compiled cell uses the names of an
// earlier compiled cell whose plugin came from the plugin cache, after a
// restart (the cell is run again and found in the cache) and after a crash
// (the replay restores the earlier cells from the cache). Go's plugin
// loader refuses two plugins whose copies of a common package differ, so
// the new cell's build must produce the earlier cell's package exactly as
// the cached plugin holds it. Three builds in all; each may take a minute
// on a loaded machine.
func TestCompiledCellUsesCachedCell(t *testing.T) {
	cache := t.TempDir()
	k := startKernel(t, "GOCL_MODDIR="+t.TempDir(), "GOCL_PLUGIN_CACHE="+cache, "XDG_CACHE_HOME="+t.TempDir(), goCache(t))
	const build = 300 * time.Second
	run := func(when, code, want string) bool {
		t.Helper()
		rep, outs := k.executeWithin(code, build)
		if rep == nil {
			t.Fatalf("%s: no reply to %q in %v", when, code, build)
		}
		if rep["status"] != "ok" {
			t.Errorf("%s: %q failed: %v: %v", when, code, rep["ename"], rep["evalue"])
			return false
		}
		got := ""
		if res := ofType(outs, "execute_result"); len(res) == 1 {
			got, _ = decode(t, res[0])["data"].(map[string]any)["text/plain"].(string)
		}
		if got != want {
			t.Errorf("%s: %q = %q, want %q", when, code, got, want)
		}
		return true
	}
	a := "//gocl:compile\ntype Celsius float64\n\nfunc Boil() Celsius { return 100 }\n\nconst base = 7\n"
	b := "//gocl:compile\nfunc Hotter(d Celsius) Celsius { return Boil() + d + Celsius(base) }\n"
	c := "//gocl:compile\nfunc Colder(d Celsius) Celsius { return Boil() - d - base }\n"

	run("first run", a, "")
	r := k.request(k.control, "shutdown_request", map[string]any{"restart": true}, 30*time.Second, false)
	if c := decode(t, r); c["status"] != "ok" {
		t.Fatalf("restart: %v", c)
	}
	run("after a restart", a, "") // from the cache
	if run("after a restart", b, "") {
		run("after a restart", "Hotter(3)", "110")
	}

	k.crash()
	// The replay restored a (and b) from the cache; c is new.
	if run("after a crash", c, "") {
		run("after a crash", "Colder(3)", "90")
	}
	// a came from the cache after the restart and the crash, b after the
	// crash: built once each.
	if sos, _ := filepath.Glob(filepath.Join(cache, "*.so")); len(sos) != 3 {
		t.Errorf("%d plugins in the cache, want 3 (one for each cell): a cell was built again instead of loaded", len(sos))
	}
}
