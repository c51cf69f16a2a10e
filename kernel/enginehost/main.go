package enginehost

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"github.com/seed43a1e1ab/gocl/internal/faultguard"
	"github.com/seed43a1e1ab/gocl/kernel/compiled"
	"github.com/seed43a1e1ab/gocl/kernel/engine"
	"github.com/seed43a1e1ab/gocl/kernel/enginehost/faultname"
	"github.com/seed43a1e1ab/gocl/kernel/enginewire"
	"github.com/seed43a1e1ab/gocl/kernel/session"
)

// supervisorFD is the Unix socket to the supervisor (exec.Cmd.ExtraFiles[0]).
const supervisorFD = 3

// pipeSize is the capacity asked for the captured fd 1 and 2 pipes, so that
// a Go crash report fits in them while the process is frozen in its crash.
const pipeSize = 1 << 20

// Main is `gocl engine`: it is started by the kernel (kernel/supervisor),
// never by a user.
func Main(args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("gocl engine", flag.ContinueOnError)
	fs.SetOutput(stderr)
	limit := fs.Int64("memory-limit", 0, "the engine's memory limit in `BYTES` (0: none)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	var st syscall.Stat_t
	if err := syscall.Fstat(supervisorFD, &st); err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFSOCK {
		fmt.Fprintln(stderr, "gocl engine: this command is started by `gocl kernel` and `gocl run`, with a socket on fd 3; it is not for users")
		return 2
	}
	syscall.CloseOnExec(supervisorFD) // a cell's subprocesses must not hold the supervisor's socket
	// Interrupts come as messages; a Ctrl-C meant for `gocl run` must not end the engine.
	signal.Ignore(syscall.SIGINT, syscall.SIGQUIT, syscall.SIGTSTP)
	if *limit > 0 {
		applyMemoryLimit(*limit, stderr)
	}
	// Should the system run out of memory anyway, its killer takes the
	// engine (which the kernel replaces), not the kernel or the notebook server.
	_ = os.WriteFile("/proc/self/oom_score_adj", []byte("500"), 0)
	fc, err := net.FileConn(os.NewFile(supervisorFD, "supervisor"))
	if err != nil {
		fmt.Fprintf(stderr, "gocl engine: fd 3 is not the supervisor's socket: %v\n", err)
		return 2
	}
	uc, ok := fc.(*net.UnixConn)
	if !ok {
		fmt.Fprintln(stderr, "gocl engine: fd 3 is not a Unix socket")
		return 2
	}
	sess, err := session.New()
	if err != nil {
		sendReady(uc, enginewire.ReadyBody{PID: os.Getpid(), Error: err.Error()}, nil)
		return 1
	}
	for _, fd := range []int{1, 2} {
		// Best effort: the default 64 KiB is what a crash report can block on.
		_, _, _ = syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_SETPIPE_SZ, pipeSize)
	}
	faultname.SetFD(rawFD(engine.OriginalStderr()))
	faultguard.Set(func() { faultname.Guard() })
	var rights []byte
	if out, errf, err := engine.CapturedReaders(); err == nil {
		rights = syscall.UnixRights(rawFD(out), rawFD(errf))
		defer out.Close()
		defer errf.Close()
	}
	if err := sendReady(uc, enginewire.ReadyBody{PID: os.Getpid()}, rights); err != nil {
		fmt.Fprintf(engine.OriginalStderr(), "gocl engine: telling the supervisor it is ready: %v\n", err)
		return 1
	}
	// Build directories of compiled cells: those of engines that were
	// killed go now, this engine's when it exits.
	go compiled.RemoveStale()
	h := New(enginewire.NewConn(uc, uc), sess, func(code int) { compiled.CloseAll(); os.Exit(code) })
	_ = h.Serve() // ends when the supervisor is gone
	compiled.CloseAll()
	return 0
}

func sendReady(uc *net.UnixConn, body enginewire.ReadyBody, rights []byte) error {
	line, _ := json.Marshal(enginewire.Event{Kind: enginewire.EvReady, Body: enginewire.Body(body)})
	_, _, err := uc.WriteMsgUnix(append(line, '\n'), rights, nil)
	return err
}

// rawFD is f's descriptor without File.Fd's switch to blocking mode, which
// would also switch the engine's own reader of the shared pipe.
func rawFD(f *os.File) int {
	fd := -1
	if rc, err := f.SyscallConn(); err == nil {
		_ = rc.Control(func(u uintptr) { fd = int(u) })
	}
	return fd
}

// applyMemoryLimit caps the data segment (private writable memory: a huge
// allocation fails at once, as an "out of memory" the supervisor reports)
// and makes the Go runtime collect harder near the limit. Never RLIMIT_AS:
// GPU drivers reserve large virtual ranges.
func applyMemoryLimit(limit int64, stderr io.Writer) {
	debug.SetMemoryLimit(limit)
	lim := syscall.Rlimit{Cur: uint64(limit), Max: uint64(limit)}
	var old syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_DATA, &old); err == nil && old.Max < lim.Max {
		lim.Cur, lim.Max = old.Max, old.Max
	}
	if err := syscall.Setrlimit(syscall.RLIMIT_DATA, &lim); err != nil {
		fmt.Fprintf(stderr, "gocl engine: memory limit not applied (RLIMIT_DATA): %v\n", err)
	}
}
