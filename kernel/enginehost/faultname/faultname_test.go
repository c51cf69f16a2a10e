//go:build linux && (amd64 || arm64)

package faultname

import (
	"os"
	"syscall"
	"testing"
	"unsafe"
)

// kernelAction is the kernel's struct sigaction on linux/amd64 and arm64.
type kernelAction struct {
	handler  uintptr
	flags    uint64
	restorer uintptr
	mask     uint64
}

const (
	saNodefer   = 0x40000000
	saResetHand = 0x80000000
)

func action(t *testing.T, sig syscall.Signal) kernelAction {
	t.Helper()
	var a kernelAction
	if _, _, e := syscall.RawSyscall6(syscall.SYS_RT_SIGACTION, uintptr(sig), 0, uintptr(unsafe.Pointer(&a)), 8, 0, 0); e != 0 {
		t.Fatalf("reading the action of %v: %v", sig, e)
	}
	return a
}

func setAction(t *testing.T, sig syscall.Signal, a kernelAction) {
	t.Helper()
	if _, _, e := syscall.RawSyscall6(syscall.SYS_RT_SIGACTION, uintptr(sig), uintptr(unsafe.Pointer(&a)), 0, 8, 0, 0); e != 0 {
		t.Fatalf("setting the action of %v: %v", sig, e)
	}
}

// TestGuardPutsBackTheEngineHandler replaces the runtime's SIGSEGV handler
// the way LLVM's crash handler does (SA_RESETHAND|SA_NODEFER), and the way
// that handler leaves it as it fires (the default, flags kept): Guard puts
// the runtime's back both times, and leaves a library's handler that is not
// one-shot (PoCL's SIGFPE handler) alone.
func TestGuardPutsBackTheEngineHandler(t *testing.T) {
	SetFD(int(os.Stderr.Fd()))
	engine := action(t, syscall.SIGSEGV)
	defer setAction(t, syscall.SIGSEGV, engine)
	if engine.flags&saResetHand != 0 {
		t.Fatalf("the runtime's SIGSEGV handler is one-shot (flags %#x)", engine.flags)
	}
	oneShot := engine
	oneShot.flags |= saResetHand | saNodefer
	fired := oneShot
	fired.handler = 0 // SIG_DFL
	for _, c := range []struct {
		name string
		a    kernelAction
	}{{"a one-shot handler", oneShot}, {"a one-shot handler that fired", fired}} {
		setAction(t, syscall.SIGSEGV, c.a)
		if n := Guard(); n != 1 {
			t.Errorf("%s: Guard put back %d handlers, want 1", c.name, n)
		}
		if got := action(t, syscall.SIGSEGV); got.handler != engine.handler || got.flags != engine.flags {
			t.Errorf("%s: after Guard SIGSEGV's handler is %#x (flags %#x), want the runtime's %#x (flags %#x)",
				c.name, got.handler, got.flags, engine.handler, engine.flags)
		}
	}

	fpe := action(t, syscall.SIGFPE)
	defer setAction(t, syscall.SIGFPE, fpe)
	own := fpe
	own.flags |= saNodefer // another handler, not one-shot
	setAction(t, syscall.SIGFPE, own)
	if n := Guard(); n != 0 {
		t.Errorf("Guard put back %d handlers with no one-shot handler installed, want 0", n)
	}
	if got := action(t, syscall.SIGFPE); got.flags != own.flags {
		t.Errorf("Guard replaced a SIGFPE handler that is not one-shot: flags %#x, want %#x", got.flags, own.flags)
	}
}
