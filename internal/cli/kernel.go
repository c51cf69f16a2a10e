package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/seed43a1e1ab/gocl/internal/earlybind"
	"github.com/seed43a1e1ab/gocl/kernel/dispatch"
	"github.com/seed43a1e1ab/gocl/kernel/engine"
	"github.com/seed43a1e1ab/gocl/kernel/session"
	"github.com/seed43a1e1ab/gocl/kernel/supervisor"
	"github.com/seed43a1e1ab/gocl/kernel/transport"
)

func kernelCmd(args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("gocl kernel", flag.ContinueOnError)
	fs.SetOutput(stderr)
	connFile := fs.String("connection-file", "", "the Jupyter connection `FILE` (Jupyter passes it)")
	level := fs.String("log-level", envOr("GOCL_LOG_LEVEL", "info"), "log `LEVEL`: debug, info, warn or error")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *connFile == "" && fs.NArg() == 1 { // also accept the file as the only argument
		*connFile = fs.Arg(0)
	}
	if *connFile == "" {
		fmt.Fprintln(stderr, "gocl kernel: --connection-file FILE is required (Jupyter passes it; see `gocl install`)")
		return 2
	}
	var lv slog.Level
	if err := lv.UnmarshalText([]byte(*level)); err != nil {
		fmt.Fprintf(stderr, "gocl kernel: bad --log-level %q: use debug, info, warn or error\n", *level)
		return 2
	}
	// The kernel's log goes to the real stderr (Jupyter's console), never into
	// a cell: the engine captures file descriptors 1 and 2 for the cells.
	log := slog.New(slog.NewTextHandler(originalStderr{}, &slog.HandlerOptions{Level: lv}))
	if err := serveKernel(*connFile, log); err != nil {
		log.Error("kernel stopped", "err", err)
		return 1
	}
	return 0
}

type originalStderr struct{}

func (originalStderr) Write(p []byte) (int, error) { return engine.OriginalStderr().Write(p) }

// serveKernel binds the sockets first: jupyter_client connects as soon as
// it has started the process, and a connection refused waits out libzmq's
// reconnect interval (100 to 200 ms). What the kernel needs besides (the
// engine process, the history file) starts after, beside the sockets, and
// only the requests that need it wait for it: kernel_info is answered at once.
func serveKernel(connFile string, log *slog.Logger) error {
	info, err := transport.LoadConnectionFile(connFile)
	if err != nil {
		return err
	}
	srv, err := transport.Listen(info, log) // with the ports package earlybind bound, if it could
	earlybind.Release()
	if err != nil {
		return err
	}
	defer srv.Close()

	hist := openHistory(log)
	parentPID, _ := strconv.Atoi(os.Getenv("JPY_PARENT_PID"))
	k, err := dispatch.New(dispatch.Config{
		Transport: srv,
		NewEngine: func() (dispatch.Engine, error) { return newEngine(log) },
		History:   hist,
		Info: dispatch.Info{
			Version:   FullVersion(),
			GoVersion: GoVersion(),
			Banner: fmt.Sprintf("gocl %s: Go %s interpreted by yaegi %s, with OpenCL as cl\n",
				FullVersion(), GoVersion(), YaegiVersion()),
		},
		Log: log,
		// A Jupyter kernel manager (it sets JPY_PARENT_PID) restarts a kernel
		// by starting a new process, so a restart request must end this one.
		ExitOnRestart: parentPID > 0,
	})
	if err != nil {
		return fmt.Errorf("starting the interpreter: %w", err)
	}

	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(sigs)
	go func() {
		for s := range sigs {
			if s == syscall.SIGINT {
				log.Info("SIGINT: interrupting the running cell")
				k.Interrupt()
				continue
			}
			log.Info("signal: shutting down", "signal", s)
			stop()
			return
		}
	}()
	if parentPID > 0 {
		go watchParent(ctx, parentPID, stop, log)
	}
	log.Info("gocl kernel started", "version", FullVersion(), "connection_file", connFile)
	err = k.Run(ctx)
	k.Close(5 * time.Second)
	if err == context.Canceled {
		err = nil
	}
	return err
}

// watchParent ends the kernel when the process that launched it is gone, so
// a crashed Jupyter leaves no orphan kernels behind (ipykernel does the same).
func watchParent(ctx context.Context, pid int, stop func(), log *slog.Logger) {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if os.Getppid() != pid && syscall.Kill(pid, 0) != nil {
				log.Warn("the parent process is gone: shutting down", "pid", pid)
				stop()
				return
			}
		}
	}
}

func envOr(key, def string) string {
	if v := strings.TrimSpace(os.Getenv(key)); v != "" {
		return v
	}
	return def
}

// newEngine starts the engine in a supervised child process (`gocl engine`)
// and returns without waiting for it, or, with GOCL_ENGINE=in-process, in
// this process (no crash protection; for debugging and comparison).
func newEngine(log *slog.Logger) (dispatch.Engine, error) {
	if os.Getenv("GOCL_ENGINE") == "in-process" {
		return session.New()
	}
	return supervisor.New(engineConfig(log))
}

// engineConfig says how the supervisor starts engine processes:
// GOCL_ENGINE_EXE names a program to start instead of this gocl, as
// `PROGRAM engine ...` (a wrapper that runs the engine under a debugger or
// a profiler, or, in the tests, later), which must end by executing gocl
// with the same arguments.
func engineConfig(log *slog.Logger) supervisor.Config {
	return supervisor.Config{Exe: os.Getenv("GOCL_ENGINE_EXE"), Log: log}
}
