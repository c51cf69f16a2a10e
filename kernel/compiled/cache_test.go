package compiled

import (
	"os"
	"path/filepath"
	"testing"
)

// TestCachedVerifies: a cached plugin is used only with a record that
// matches its contents, both private to this user.
func TestCachedVerifies(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("GOCL_PLUGIN_CACHE", dir)
	const key = "0123456789abcdef0123456789abcdef"
	so := filepath.Join(t.TempDir(), "built.so")
	os.WriteFile(so, []byte("plugin bytes"), 0o755)
	if got := store(key, so); got != filepath.Join(dir, key+".so") {
		t.Fatalf("store = %s", got)
	}
	for _, f := range []string{key + ".so", key + ".sum"} {
		if fi, err := os.Stat(filepath.Join(dir, f)); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: %v, mode %v; want 0600", f, err, fi.Mode().Perm())
		}
	}
	if p, done := cached(key); p == "" {
		t.Fatal("a plugin just stored is not found")
	} else {
		done()
	}
	p := filepath.Join(dir, key+".so")
	for name, spoil := range map[string]func(){
		"swapped contents": func() { os.WriteFile(p, []byte("other bytes!"), 0o600) },
		"no record":        func() { os.Remove(filepath.Join(dir, key+".sum")) },
		"writable by all":  func() { os.Chmod(p, 0o666) },
		"a symbolic link": func() {
			real := filepath.Join(t.TempDir(), "x.so")
			os.Rename(p, real)
			os.Symlink(real, p)
		},
	} {
		store(key, so)
		spoil()
		if got, _ := cached(key); got != "" {
			t.Errorf("%s: cached returned %s, want a rebuild", name, got)
		}
		os.Remove(p)
	}
	// In a directory others may write, the verified bytes load from a copy.
	store(key, so)
	os.Chmod(dir, 0o777)
	got, done := cached(key)
	if got == "" || filepath.Dir(got) == dir {
		t.Errorf("in a world-writable cache: cached = %q, want a private copy", got)
	} else if b, _ := os.ReadFile(got); string(b) != "plugin bytes" {
		t.Errorf("the copy holds %q", b)
	}
	if done != nil {
		done()
		if _, err := os.Stat(got); err == nil {
			t.Errorf("the private copy was not removed")
		}
	}
}
