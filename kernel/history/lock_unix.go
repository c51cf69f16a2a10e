//go:build unix

package history

import (
	"fmt"
	"os"
	"syscall"
)

// withLock runs f holding an exclusive advisory lock on path+".lock", so
// that kernels sharing the file neither pick the same session number nor
// lose cells to each other's trims.
func withLock(path string, f func() error) error {
	lf, err := os.OpenFile(path+".lock", os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("history: lock %s: %w", path, err)
	}
	defer lf.Close()
	if err := syscall.Flock(int(lf.Fd()), syscall.LOCK_EX); err != nil {
		return fmt.Errorf("history: lock %s: %w", path, err)
	}
	defer syscall.Flock(int(lf.Fd()), syscall.LOCK_UN)
	return f()
}
