package compiled

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

// The plugin cache keeps built cells by the hash of everything that went
// into them: the gocl binary itself, the cell's name and generated files, the
// pinned modules and the keys of the earlier cells it imports. Running a
// notebook again (a new kernel, gocl run) loads its cells from there without
// building, and a machine with no Go toolchain can run cells that were built
// by the same binary elsewhere and carried in the cache directory.
//
// GOCL_PLUGIN_CACHE names the directory ("off" disables the cache); the
// default is gocl/plugins in the user cache directory. It keeps the
// cacheKeep most recently used plugins.

const cacheKeep = 16

func cacheDir() string {
	switch d := os.Getenv("GOCL_PLUGIN_CACHE"); d {
	case "off":
		return ""
	case "":
		base, err := os.UserCacheDir()
		if err != nil {
			return ""
		}
		return filepath.Join(base, "gocl", "plugins")
	default:
		return d
	}
}

var (
	binOnce sync.Once
	binHash string
)

// binaryHash identifies the running gocl binary by its contents.
func binaryHash() string {
	binOnce.Do(func() {
		exe, err := os.Executable()
		if err != nil {
			return
		}
		f, err := os.Open(exe)
		if err != nil {
			return
		}
		defer f.Close()
		h := sha256.New()
		if _, err := io.Copy(h, f); err == nil {
			binHash = hex.EncodeToString(h.Sum(nil))
		}
	})
	return binHash
}

// cacheKey hashes the inputs of a cell build; "" when the binary cannot be
// identified (no caching then).
func cacheKey(name string, files map[string]string, deps []string) string {
	bin := binaryHash()
	if bin == "" {
		return ""
	}
	h := sha256.New()
	io.WriteString(h, "gocl plugin v1\x00"+bin+"\x00"+name+"\x00")
	var names []string
	for f := range files {
		names = append(names, f)
	}
	sort.Strings(names)
	for _, f := range names {
		io.WriteString(h, filepath.Base(filepath.Dir(f))+"/"+filepath.Base(f)+"\x00"+files[f]+"\x00")
	}
	pins, _ := os.ReadFile(pinPath(PinFile))
	sums, _ := os.ReadFile(pinPath(PinSumFile))
	h.Write(pins)
	h.Write(sums)
	io.WriteString(h, "\x00"+strings.Join(deps, ","))
	return hex.EncodeToString(h.Sum(nil))[:32]
}

// cached returns the cached plugin of key, or "".
func cached(key string) string {
	dir := cacheDir()
	if dir == "" || key == "" {
		return ""
	}
	p := filepath.Join(dir, key+".so")
	if _, err := os.Stat(p); err != nil {
		return ""
	}
	now := time.Now()
	os.Chtimes(p, now, now) // recently used
	return p
}

// store moves the built plugin so into the cache under key and returns its
// new path (so itself when there is no cache).
func store(key, so string) string {
	dir := cacheDir()
	if dir == "" || key == "" || os.MkdirAll(dir, 0o755) != nil {
		return so
	}
	dst := filepath.Join(dir, key+".so")
	if err := os.Rename(so, dst); err != nil {
		if err := copyFile(so, dst+".tmp"); err != nil || os.Rename(dst+".tmp", dst) != nil {
			os.Remove(dst + ".tmp")
			return so
		}
	}
	prune(dir)
	return dst
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// prune keeps the cacheKeep most recently used plugins of dir.
func prune(dir string) {
	files, _ := filepath.Glob(filepath.Join(dir, "*.so"))
	if len(files) <= cacheKeep {
		return
	}
	type entry struct {
		path string
		mod  int64
	}
	var es []entry
	for _, f := range files {
		if st, err := os.Stat(f); err == nil {
			es = append(es, entry{f, st.ModTime().UnixNano()})
		}
	}
	sort.Slice(es, func(i, j int) bool { return es[i].mod > es[j].mod })
	for _, e := range es[min(cacheKeep, len(es)):] {
		os.Remove(e.path)
	}
}
