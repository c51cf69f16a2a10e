package nbrun

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// writableTarget returns the file the executed notebook goes to, path or,
// when path is a symbolic link, the file it points to (the link stays a
// link), after checking that it can be written: its directory exists and is
// writable, and the file, if it exists, is a writable regular file. gocl
// run calls it before any cell runs, so a run is not wasted on a notebook
// it cannot save.
func writableTarget(path string) (string, error) {
	for hops := 0; ; hops++ {
		fi, err := os.Lstat(path)
		if errors.Is(err, fs.ErrNotExist) {
			break
		}
		if err != nil {
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			if !fi.Mode().IsRegular() {
				return "", fmt.Errorf("%s is not a regular file", path)
			}
			// The owner's write bit counts even for root, who may write
			// anything: a notebook made read-only is meant to stay as it is.
			if fi.Mode().Perm()&0o200 == 0 || syscall.Access(path, 2 /* W_OK */) != nil {
				return "", fmt.Errorf("%s is read-only (mode %v), and gocl run does not replace a file it may not write: "+
					"make it writable (chmod u+w) or write elsewhere with -o", path, fi.Mode().Perm())
			}
			break
		}
		if hops == 40 {
			return "", fmt.Errorf("%s: too many levels of symbolic links", path)
		}
		dest, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(dest) {
			dest = filepath.Join(filepath.Dir(path), dest)
		}
		path = dest
	}
	dir := filepath.Dir(path)
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", fmt.Errorf("the directory %s does not exist: create it first", dir)
	case err != nil:
		return "", err
	case !fi.IsDir():
		return "", fmt.Errorf("%s is not a directory", dir)
	}
	if err := syscall.Access(dir, 3 /* W_OK|X_OK */); err != nil {
		return "", fmt.Errorf("the directory %s is not writable", dir)
	}
	return path, nil
}

// writeFileAtomic replaces path with data through a temporary file in the
// same directory, renamed over it, so an interrupted write never leaves half
// a notebook; the file keeps its permissions. path must not be a symbolic
// link (writableTarget resolves links).
func writeFileAtomic(path string, data []byte) error {
	mode := os.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".gocl-run-*.ipynb")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(data)
	if werr == nil {
		werr = tmp.Sync()
	}
	cerr := tmp.Close()
	if werr == nil && cerr == nil {
		if err := os.Chmod(tmp.Name(), mode); err != nil {
			werr = err
		} else if err := os.Rename(tmp.Name(), path); err != nil {
			werr = err
		} else {
			return nil
		}
	}
	os.Remove(tmp.Name())
	if werr != nil {
		return werr
	}
	return cerr
}
