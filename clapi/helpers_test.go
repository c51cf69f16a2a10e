package clapi

import (
	"errors"
	"strings"
	"testing"
)

// testQueue returns a profiling queue on the default device, skipping the
// test when the machine has no OpenCL platform.
func testQueue(t testing.TB) (*Context, *Queue) {
	t.Helper()
	if len(Platforms()) == 0 {
		t.Skip("no OpenCL platform (install pocl-opencl-icd)")
	}
	ctx := CreateSomeContext()
	q := NewQueue(ctx, Profiling)
	t.Cleanup(func() { q.Release(); ctx.Release() })
	return ctx, q
}

// mustFail runs f and returns the *Error it panicked with; the test fails
// if f returned normally or the message lacks any of want.
func mustFail(t testing.TB, f func(), want ...string) *Error {
	t.Helper()
	err := Try(f)
	if err == nil {
		t.Fatalf("no error; want one mentioning %q", want)
	}
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v is not a *clapi.Error", err)
	}
	for _, w := range want {
		if !strings.Contains(e.Error(), w) {
			t.Errorf("error %q does not mention %q", e.Error(), w)
		}
	}
	return e
}

// must runs f and fails the test with the *Error it raised, if any.
func must(t testing.TB, f func()) {
	t.Helper()
	if err := Try(f); err != nil {
		t.Fatal(err)
	}
}
