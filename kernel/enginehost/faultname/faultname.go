// Package faultname names the library in which C code crashed the engine
// process.
//
// A SIGSEGV in a thread that Go does not run (a PoCL worker thread running
// a student's OpenCL kernel, a driver's thread) kills the process with no Go
// report at all; one in C code called by Go ends in a report without the C
// side. A C constructor installs, before the Go runtime starts, a handler
// that the runtime keeps and forwards such signals to: it writes one line,
//
//	gocl-fault: SIGSEGV pc=0x7f... addr=0x... in /path/libfoo.so (symbol)
//
// to the engine's own stderr (the supervisor's crash pipe), then lets the
// signal kill the process as before. Go code's own faults (nil pointer
// dereferences) never reach it: the runtime handles those.
//
// A library may put its own handler in front. PoCL starts LLVM when it
// sets up its devices, and LLVM installs a crash handler for SIGSEGV, SIGBUS,
// SIGILL (and more) with SA_RESETHAND: the kernel resets the handler to the
// default for the whole process as it delivers the first fault. When two of
// PoCL's threads fault together (an OpenCL kernel's work-groups writing out
// of bounds at once), the second one's fault, a few microseconds later,
// found no handler and killed the engine before LLVM's handler had put the
// runtime's back: no report, in about one crash in three on an idle
// machine. Guard puts the engine's handlers back; clapi calls it before each
// kernel launch and once drivers are set up.
package faultname

/*
#cgo LDFLAGS: -ldl
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>

static volatile int gocl_fault_fd = 2;
static volatile int gocl_fault_seen = 0;

// The line is built in a buffer and written with one write(2), so that it
// arrives whole (a pipe write below PIPE_BUF is atomic): PoCL runs a
// kernel's work-groups on several threads, which often fault together, and
// their pieces used to interleave into a line nobody could read.
struct gocl_line {
	char b[1024];
	size_t n;
};

static void gocl_put(struct gocl_line *l, const char *s) {
	size_t k = strlen(s);
	if (k > sizeof l->b - 1 - l->n) {
		k = sizeof l->b - 1 - l->n;
	}
	memcpy(l->b + l->n, s, k);
	l->n += k;
}

static void gocl_hex(struct gocl_line *l, unsigned long v) {
	char b[19];
	int i = 18;
	b[i] = 0;
	do {
		b[--i] = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v && i > 2);
	b[--i] = 'x';
	b[--i] = '0';
	gocl_put(l, b + i);
}

static const char *gocl_signame(int sig) {
	switch (sig) {
	case SIGSEGV: return "SIGSEGV";
	case SIGBUS: return "SIGBUS";
	case SIGILL: return "SIGILL";
	case SIGFPE: return "SIGFPE";
	}
	return "signal";
}

static void gocl_on_fault(int sig, siginfo_t *info, void *ctx) {
	// Only the first faulting thread reports. The others return and fault
	// again, into this handler, until the first one has written its line
	// and set the default action, which then kills the process: a thread
	// that died of it at once would take the line with it.
	if (__sync_lock_test_and_set(&gocl_fault_seen, 1)) {
		return;
	}
	unsigned long pc = 0;
#if defined(__x86_64__)
	pc = (unsigned long)((ucontext_t *)ctx)->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
	pc = (unsigned long)((ucontext_t *)ctx)->uc_mcontext.pc;
#endif
	struct gocl_line l;
	l.n = 0;
	gocl_put(&l, "gocl-fault: ");
	gocl_put(&l, gocl_signame(sig));
	gocl_put(&l, " pc=");
	gocl_hex(&l, pc);
	gocl_put(&l, " addr=");
	gocl_hex(&l, (unsigned long)info->si_addr);
	Dl_info d;
	if (pc && dladdr((void *)pc, &d) && d.dli_fname) {
		gocl_put(&l, " in ");
		gocl_put(&l, d.dli_fname);
		if (d.dli_sname) {
			gocl_put(&l, " (");
			gocl_put(&l, d.dli_sname);
			gocl_put(&l, ")");
		}
	} else {
		gocl_put(&l, " in code outside any library (JIT-compiled?)");
	}
	gocl_put(&l, "\n");
	ssize_t r = write(gocl_fault_fd, l.b, l.n);
	(void)r;
	// Die of the signal as before: the faulting instruction runs again
	// with the default action once the handler returns.
	struct sigaction dfl;
	memset(&dfl, 0, sizeof dfl);
	dfl.sa_handler = SIG_DFL;
	sigaction(sig, &dfl, NULL);
}

__attribute__((constructor)) static void gocl_fault_install(void) {
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = gocl_on_fault;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	int sigs[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE};
	for (unsigned i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
		sigaction(sigs[i], &sa, NULL);
	}
}

static void gocl_fault_set_fd(int fd) { gocl_fault_fd = fd; }

// The faults Guard keeps, and the engine's own handlers for them (the Go
// runtime's, which forwards C code's faults to gocl_on_fault), taken by
// gocl_fault_arm once the runtime has installed them.
static const int gocl_guarded[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE};
#define GOCL_NGUARDED (sizeof gocl_guarded / sizeof gocl_guarded[0])
static struct sigaction gocl_engine_action[GOCL_NGUARDED];
static int gocl_engine_saved[GOCL_NGUARDED];

static void gocl_fault_arm(void) {
	for (unsigned i = 0; i < GOCL_NGUARDED; i++) {
		struct sigaction *a = &gocl_engine_action[i];
		gocl_engine_saved[i] = sigaction(gocl_guarded[i], NULL, a) == 0 && !(a->sa_flags & SA_RESETHAND);
	}
}

// gocl_fault_guard puts back the engine's handler of each guarded fault
// whose handler is now a one-shot one (SA_RESETHAND), or one that such a
// handler left at the default as it fired: in a process of many threads a
// one-shot fault handler loses the second of two faults that come together.
// A library's handler without SA_RESETHAND (PoCL's SIGFPE handler, which
// lets a kernel's integer division by zero go on) is left in place, and so
// is the default that gocl_on_fault itself sets to die. It returns how many
// handlers it put back.
static int gocl_fault_guard(void) {
	int n = 0;
	for (unsigned i = 0; i < GOCL_NGUARDED; i++) {
		struct sigaction cur;
		if (!gocl_engine_saved[i] || sigaction(gocl_guarded[i], NULL, &cur) != 0 || !(cur.sa_flags & SA_RESETHAND)) {
			continue;
		}
		if (sigaction(gocl_guarded[i], &gocl_engine_action[i], NULL) == 0) {
			n++;
		}
	}
	return n;
}
*/
import "C"

// SetFD makes the handler write to fd (the engine's own stderr, which the
// supervisor reads) instead of fd 2, which the engine captures for cells.
// It also takes the fault handlers in place now, the Go runtime's, as the
// ones Guard puts back: call it once the runtime has started and before any
// library is loaded.
func SetFD(fd int) {
	C.gocl_fault_set_fd(C.int(fd))
	C.gocl_fault_arm()
}

// Guard puts back the engine's handler of SIGSEGV, SIGBUS, SIGILL and SIGFPE
// where a library replaced it with a one-shot handler (SA_RESETHAND, as
// LLVM's crash handler is), so that every thread's fault reaches the handler
// that reports it. It returns how many handlers it put back. It costs a few
// system calls; it is safe from any goroutine, at any time after SetFD.
func Guard() int { return int(C.gocl_fault_guard()) }
