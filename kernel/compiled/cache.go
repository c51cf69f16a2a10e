package compiled

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
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

// A plugin in the cache is loaded only when it is verified: it and its
// record (KEY.sum, written by store) are regular files owned by this user
// and writable by no one else, the record names the key, and the plugin's
// SHA-256 is the one the record holds. Anything else (a plugin another
// user planted under the key in a shared or world-writable cache, one
// swapped or truncated since) is rebuilt, never loaded: loading runs the
// plugin's init as this user. In a directory others may write, the verified
// bytes are loaded from a private copy, so the file cannot be swapped
// between the check and the load.

// cached returns the path of the verified cached plugin of key and a
// function that removes what loading needed (a private copy); "" when
// there is none or it fails verification.
func cached(key string) (path string, done func()) {
	dir := cacheDir()
	if dir == "" || key == "" {
		return "", nil
	}
	p := filepath.Join(dir, key+".so")
	data, err := readOwned(p)
	if err != nil {
		return "", nil
	}
	rec, err := readOwned(filepath.Join(dir, key+".sum"))
	if err != nil || string(rec) != sumRecord(key, data) {
		return "", nil
	}
	now := time.Now()
	os.Chtimes(p, now, now) // recently used
	if private(dir) {
		return p, func() {}
	}
	tmp, err := os.MkdirTemp("", "gocl-plugin-")
	if err != nil {
		return "", nil
	}
	cp := filepath.Join(tmp, key+".so")
	if err := os.WriteFile(cp, data, 0o600); err != nil {
		os.RemoveAll(tmp)
		return "", nil
	}
	return cp, func() { os.RemoveAll(tmp) }
}

// sumRecord is the content of KEY.sum for a plugin of key with contents data.
func sumRecord(key string, data []byte) string {
	h := sha256.Sum256(data)
	return "gocl plugin v1 " + key + " sha256:" + hex.EncodeToString(h[:]) + "\n"
}

// readOwned reads path, refusing a file that is not a regular file owned by
// this user and unwritable by others (checked on the open file, with no
// symbolic link followed).
func readOwned(path string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", path)
	}
	if err := ownedByMe(fi); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return io.ReadAll(f)
}

// ownedByMe says why fi is not owned by this user or is writable by others,
// or nil.
func ownedByMe(fi os.FileInfo) error {
	st, ok := fi.Sys().(*syscall.Stat_t)
	switch {
	case !ok || int(st.Uid) != os.Getuid():
		return errors.New("owned by another user")
	case fi.Mode().Perm()&0o022 != 0:
		return fmt.Errorf("writable by others (mode %v)", fi.Mode().Perm())
	}
	return nil
}

// private reports whether dir is a directory of this user's that no one
// else may write (not a symbolic link).
func private(dir string) bool {
	fi, err := os.Lstat(dir)
	return err == nil && fi.IsDir() && ownedByMe(fi) == nil
}

// store copies the built plugin so into the cache under key, mode 0600,
// with its record, and returns its new path (so itself when there is no
// cache or it cannot be stored).
func store(key, so string) string {
	dir := cacheDir()
	if dir == "" || key == "" || os.MkdirAll(dir, 0o700) != nil {
		return so
	}
	if os.Getenv("GOCL_PLUGIN_CACHE") == "" {
		// The default cache, made 0755 by an older gocl: a compiled
		// cell's constants are in its plugin.
		os.Chmod(filepath.Dir(dir), 0o700)
		os.Chmod(dir, 0o700)
	}
	data, err := os.ReadFile(so)
	if err != nil {
		return so
	}
	dst := filepath.Join(dir, key+".so")
	if writePrivate(dst, data) != nil || writePrivate(filepath.Join(dir, key+".sum"), []byte(sumRecord(key, data))) != nil {
		os.Remove(dst)
		return so
	}
	prune(dir)
	if !private(dir) {
		return so // load what was built, not what others may have swapped in
	}
	return dst
}

// writePrivate replaces path with data, mode 0600, through a temporary file
// renamed over it.
func writePrivate(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	cerr := f.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(f.Name())
		return err
	}
	if err := os.Rename(f.Name(), path); err != nil {
		os.Remove(f.Name())
		return err
	}
	return nil
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
		os.Remove(strings.TrimSuffix(e.path, ".so") + ".sum")
	}
}
