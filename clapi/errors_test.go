package clapi

import (
	"errors"
	"strings"
	"testing"
)

func TestErrorMessage(t *testing.T) {
	e := newError("clCreateBuffer", -61, "size 0")
	msg := e.Error()
	for _, w := range []string{"clCreateBuffer", "CL_INVALID_BUFFER_SIZE", "(-61)", "size 0", "Hint:"} {
		if !strings.Contains(msg, w) {
			t.Errorf("%q lacks %q", msg, w)
		}
	}
	if e.ErrorName() != "OpenCLError" {
		t.Errorf("ErrorName %q", e.ErrorName())
	}
	if n := codeName(-12345); !strings.Contains(n, "12345") {
		t.Errorf("unknown code name %q", n)
	}
}

func TestTry(t *testing.T) {
	if err := Try(func() {}); err != nil {
		t.Fatalf("Try of a normal function: %v", err)
	}
	err := Try(func() { refuse("X", "CL_INVALID_VALUE", "bad", "") })
	var e *Error
	if !errors.As(err, &e) || e.Call != "X" || e.Code != 0 {
		t.Fatalf("Try returned %#v", err)
	}
	defer func() {
		if r := recover(); r != "other" {
			t.Fatalf("a foreign panic was not propagated: %v", r)
		}
	}()
	Try(func() { panic("other") })
	t.Fatal("unreachable")
}
