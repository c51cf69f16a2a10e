//go:build cgo

package doctor

import (
	"strings"
	"testing"
)

func TestDlopenCheck(t *testing.T) {
	if err := dlopenCheck("libc.so.6"); err != nil {
		t.Fatalf("dlopen(libc.so.6): %v", err)
	}
	err := dlopenCheck("/nonexistent/libnothing.so")
	if err == nil || !strings.Contains(err.Error(), "libnothing.so") {
		t.Fatalf("dlopen of a missing library: %v, want dlerror's message naming it", err)
	}
}
