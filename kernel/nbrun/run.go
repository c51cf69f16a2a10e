// Package nbrun implements `gocl run`: execute a notebook's code cells in
// order, without Jupyter, and store their outputs in the notebook exactly as
// `jupyter nbconvert --to notebook --execute` would.
package nbrun

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/seed43a1e1ab/gocl/kernel/cellio"
)

// Runner executes cells; *supervisor.Supervisor (and, in tests, *engine.Engine)
// provides it.
type Runner interface {
	Execute(ctx context.Context, code string, sink cellio.Sink) cellio.Result
	Close() error
}

// Config says how to make the interpreter that runs the cells.
type Config struct {
	// NewEngine makes a fresh interpreter, after --kernel-env variables are
	// set.
	NewEngine func() (Runner, error)
	// Grace is how long a cell may take to stop after its timeout before
	// gocl run gives up on it; 0 means 10 s.
	Grace time.Duration
	// LanguageInfo, when set, replaces the notebook's
	// metadata.language_info, as nbclient does with the language_info of
	// the kernel's kernel_info_reply.
	LanguageInfo map[string]any
}

// Default is the Config that Main uses; main.go sets Default.NewEngine.
var Default Config

// DefaultTimeout is the per-cell time limit unless --timeout says otherwise.
const DefaultTimeout = 10 * time.Minute

// Main runs `gocl run` with Default.
func Main(args []string, stdout, stderr io.Writer) int { return Default.Main(args, stdout, stderr) }

const usage = `usage: gocl run NOTEBOOK.ipynb [-o OUT.ipynb | --inplace] [--allow-errors] [--timeout D] [--kernel-env K=V ...]

Runs every code cell of NOTEBOOK in order and writes the notebook with its
outputs to OUT (default NOTEBOOK.out.ipynb next to it), or back to NOTEBOOK
with --inplace. Stops at the first failing cell and exits 1 without
writing anything, unless --allow-errors; an interrupt (Ctrl-C) writes
nothing either. Cells run in the notebook's directory.

`

// options are the parsed command line.
type options struct {
	in, out     string
	inplace     bool
	allowErrors bool
	timeout     time.Duration
	env         []string
}

// Main runs `gocl run` with args (the words after "run") and returns the
// exit status: 0 when every cell ran, 1 when a cell failed or timed out, 2
// for a usage error or an unreadable notebook, 130 when interrupted.
func (c Config) Main(args []string, stdout, stderr io.Writer) int {
	opt, err := parseArgs(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "gocl run: %v\n\n%s", err, usage)
		return 2
	}
	if c.NewEngine == nil {
		fmt.Fprintln(stderr, "gocl run: no engine configured (nbrun.Default.NewEngine is nil)")
		return 2
	}
	stdout, stderr = uncaptured(stdout), uncaptured(stderr)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	return c.run(ctx, opt, stdout, stderr)
}

// uncaptured returns a private duplicate of w when w is the process's stdout
// or stderr. The engine captures file descriptors 1 and 2 for the cells when
// it starts; echoing a cell's output into them would feed it back to the
// cell. Main calls it before the engine starts, so the duplicates are the
// terminal.
func uncaptured(w io.Writer) io.Writer {
	f, ok := w.(*os.File)
	if !ok {
		return w
	}
	if fd := f.Fd(); fd == 1 || fd == 2 {
		if nfd, err := syscall.Dup(int(fd)); err == nil {
			syscall.CloseOnExec(nfd)
			return os.NewFile(uintptr(nfd), f.Name())
		}
	}
	return w
}

func parseArgs(args []string, stderr io.Writer) (*options, error) {
	opt := &options{timeout: DefaultTimeout}
	fs := flag.NewFlagSet("gocl run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, usage); fs.PrintDefaults() }
	fs.StringVar(&opt.out, "o", "", "write the executed notebook to `OUT.ipynb`")
	fs.StringVar(&opt.out, "output", "", "same as -o")
	fs.BoolVar(&opt.inplace, "inplace", false, "write the executed notebook over NOTEBOOK")
	fs.BoolVar(&opt.allowErrors, "allow-errors", false, "keep running after a failing cell (exit status 0)")
	fs.Var((*timeoutFlag)(&opt.timeout), "timeout", "per-cell time limit: a duration (90s, 10m) or seconds; 0 for none")
	fs.Func("kernel-env", "set environment variable `K=V` for the cells (repeatable)", func(s string) error {
		k, _, ok := strings.Cut(s, "=")
		if !ok || k == "" {
			return fmt.Errorf("want K=V, got %q", s)
		}
		opt.env = append(opt.env, s)
		return nil
	})
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			break
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
	switch {
	case len(pos) == 0:
		return nil, errors.New("no notebook given")
	case len(pos) > 1:
		return nil, fmt.Errorf("one notebook at a time, got %d: %s", len(pos), strings.Join(pos, " "))
	case opt.inplace && opt.out != "":
		return nil, errors.New("-o and --inplace exclude each other")
	}
	opt.in = pos[0]
	if opt.inplace {
		opt.out = opt.in
	} else if opt.out == "" {
		opt.out = strings.TrimSuffix(opt.in, ".ipynb") + ".out.ipynb"
	}
	return opt, nil
}

// timeoutFlag accepts a Go duration or a number of seconds.
type timeoutFlag time.Duration

func (t *timeoutFlag) String() string { return time.Duration(*t).String() }

func (t *timeoutFlag) Set(s string) error {
	if secs, err := strconv.ParseFloat(s, 64); err == nil {
		*t = timeoutFlag(secs * float64(time.Second))
	} else if d, err := time.ParseDuration(s); err == nil {
		*t = timeoutFlag(d)
	} else {
		return fmt.Errorf("want a duration like 90s or 10m, got %q", s)
	}
	if *t < 0 {
		return fmt.Errorf("a negative timeout %q makes no sense; 0 means none", s)
	}
	return nil
}

// run executes the notebook described by opt. Everything that would keep
// the notebook from being written is checked before the first cell runs,
// and the notebook is written only when every cell ran (--allow-errors lets
// cells fail): a failure, a stuck cell or an interrupt leaves the target as
// it was, as nbconvert does, so --inplace never trades committed outputs for
// half a run.
func (c Config) run(ctx context.Context, opt *options, stdout, stderr io.Writer) int {
	in, err1 := filepath.Abs(opt.in)
	out, err2 := filepath.Abs(opt.out)
	if err := errors.Join(err1, err2); err != nil {
		fmt.Fprintf(stderr, "gocl run: %v\n", err)
		return 2
	}
	nb, err := readNotebook(in)
	if err != nil {
		fmt.Fprintf(stderr, "gocl run: %s: %v\n", opt.in, err)
		return 2
	}
	target, err := writableTarget(out)
	if err != nil {
		fmt.Fprintf(stderr, "gocl run: cannot write the executed notebook to %s: %v; no cell was run\n", opt.out, err)
		return 2
	}
	nb.ensureIDs()
	if c.LanguageInfo != nil {
		nb.setLanguageInfo(c.LanguageInfo)
	}

	restoreEnv := setEnv(opt.env)
	defer restoreEnv()
	if wd, err := os.Getwd(); err == nil {
		if err := os.Chdir(filepath.Dir(in)); err == nil {
			defer os.Chdir(wd)
		}
	}
	eng, err := c.NewEngine()
	if err != nil {
		fmt.Fprintf(stderr, "gocl run: start the interpreter: %v\n", err)
		return 2
	}
	status, stuck := c.cells(ctx, nb, eng, opt, stdout, stderr)
	if !stuck {
		if err := eng.Close(); err != nil {
			fmt.Fprintf(stderr, "gocl run: close the interpreter: %v\n", err)
		}
	}
	if status != 0 {
		fmt.Fprintf(stderr, "gocl run: %s not written: not every cell ran\n", opt.out)
		return status
	}
	for _, cell := range nb.cells {
		if cell["cell_type"] == "code" {
			coalesceStreams(cell)
		}
	}
	if err := writeFileAtomic(target, nb.encode()); err != nil {
		fmt.Fprintf(stderr, "gocl run: write %s: %v\n", opt.out, err)
		return 1
	}
	fmt.Fprintf(stderr, "wrote %s\n", opt.out)
	return status
}

// setEnv applies K=V settings and returns a function that undoes them.
func setEnv(kvs []string) func() {
	type saved struct {
		k, v string
		had  bool
	}
	var undo []saved
	for _, kv := range kvs {
		k, v, _ := strings.Cut(kv, "=")
		old, had := os.LookupEnv(k)
		undo = append(undo, saved{k, old, had})
		os.Setenv(k, v)
	}
	return func() {
		for i := len(undo) - 1; i >= 0; i-- {
			if u := undo[i]; u.had {
				os.Setenv(u.k, u.v)
			} else {
				os.Unsetenv(u.k)
			}
		}
	}
}

// runnable reports whether nbclient would execute the cell: a code cell
// with non-blank source and no "skip-execution" tag.
func runnable(cell map[string]any) (string, bool) {
	if cell["cell_type"] != "code" {
		return "", false
	}
	src, _ := source(cell)
	if strings.TrimSpace(src) == "" || hasTag(cell, "skip-execution") {
		return "", false
	}
	return src, true
}

func hasTag(cell map[string]any, tag string) bool {
	md, _ := cell["metadata"].(map[string]any)
	tags, _ := md["tags"].([]any)
	for _, t := range tags {
		if t == tag {
			return true
		}
	}
	return false
}

// cells executes the runnable cells in order. It returns the exit status
// and whether the engine is stuck in a cell that ignored its interrupt.
func (c Config) cells(ctx context.Context, nb *notebook, eng Runner, opt *options, stdout, stderr io.Writer) (status int, stuck bool) {
	total := 0
	for _, cell := range nb.cells {
		if _, ok := runnable(cell); ok {
			total++
		}
	}
	outs := newOutputs(nb.cells)
	defer nb.setWidgets(outs.widgets)
	count := 0
	for i, cell := range nb.cells {
		src, ok := runnable(cell)
		if !ok {
			continue
		}
		count++
		cell["execution_count"] = count
		outs.start(i)
		sink := &termSink{outs: outs, stdout: stdout, stderr: stderr}
		began := time.Now()
		res, timedOut, stuck := c.execute(ctx, eng, src, sink, opt.timeout)
		sink.finish() // later emissions of stray goroutines are dropped
		took := time.Since(began).Seconds()

		if res.Err == nil {
			if res.Data != nil {
				outs.result(count, res.Data, res.Metadata)
				if txt, ok := res.Data.Text("text/plain"); ok {
					fmt.Fprintf(stdout, "Out[%d]: %s\n", count, txt)
				}
			}
			fmt.Fprintf(stderr, "[%d/%d] cell %d ok %.1f s\n", count, total, i+1, took)
			continue
		}
		e := res.Err
		if timedOut {
			e = &cellio.CellError{Name: "TimeoutError",
				Value:     fmt.Sprintf("cell %d ran longer than --timeout %v", i+1, opt.timeout),
				Traceback: res.Err.Traceback}
		}
		outs.fail(e.Name, e.Value, e.Traceback)
		fmt.Fprintf(stderr, "[%d/%d] cell %d error %.1f s: %s: %s\n", count, total, i+1, took, e.Name, e.Value)
		for _, l := range e.Traceback {
			fmt.Fprintln(stderr, "    "+l)
		}
		switch {
		case ctx.Err() != nil:
			fmt.Fprintln(stderr, "gocl run: interrupted")
			return 130, stuck
		case stuck:
			fmt.Fprintln(stderr, "gocl run: the cell did not stop after its timeout; giving up")
			return 1, true
		case !opt.allowErrors && !hasTag(cell, "raises-exception"):
			fmt.Fprintln(stderr, "gocl run: stopped at the first failing cell (use --allow-errors to run on)")
			return 1, false
		}
	}
	return 0, false
}

// execute runs one cell under the timeout. A cell that does not return
// within the grace period after its context is done is abandoned: stuck.
func (c Config) execute(ctx context.Context, eng Runner, src string, sink cellio.Sink, timeout time.Duration) (res cellio.Result, timedOut, stuck bool) {
	cctx, cancel := context.WithCancel(ctx)
	if timeout > 0 {
		cctx, cancel = context.WithTimeout(ctx, timeout)
	}
	defer cancel()
	done := make(chan cellio.Result, 1)
	go func() { done <- eng.Execute(cctx, src, sink) }()
	grace := c.Grace
	if grace <= 0 {
		grace = 10 * time.Second
	}
	select {
	case res = <-done:
	case <-cctx.Done():
		select {
		case res = <-done:
		case <-time.After(grace):
			res = cellio.Result{Err: &cellio.CellError{Name: "Interrupted", Value: "the cell ignored its interrupt"}}
			stuck = true
		}
	}
	timedOut = errors.Is(cctx.Err(), context.DeadlineExceeded) && ctx.Err() == nil
	if timedOut && res.Err == nil {
		// It finished just as the timer fired: the result stands.
		timedOut = false
	}
	return res, timedOut, stuck
}

// termSink receives a cell's output: it records it in the notebook and
// echoes streams and plain-text displays to the terminal.
type termSink struct {
	mu     sync.Mutex
	outs   *outputs
	stdout io.Writer
	stderr io.Writer
	closed bool
}

func (s *termSink) finish() {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
}

// Stream implements cellio.Sink.
func (s *termSink) Stream(name, text string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	s.outs.stream(name, text)
	if name == "stderr" {
		io.WriteString(s.stderr, text)
	} else {
		io.WriteString(s.stdout, text)
	}
}

// Display implements cellio.Sink.
func (s *termSink) Display(m cellio.Message) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	s.outs.display(m)
	if m.Kind == cellio.KindShow {
		if txt, ok := m.Data.Text("text/plain"); ok && !strings.HasPrefix(txt, "<") {
			fmt.Fprintln(s.stdout, txt)
		} else {
			fmt.Fprintf(s.stdout, "[display %s]\n", strings.Join(mimes(m.Data), ", "))
		}
	}
}

// Input implements cellio.Sink: a notebook run has no user to ask.
func (s *termSink) Input(prompt string, password bool) (string, error) {
	return "", cellio.ErrNoStdin
}

func mimes(b cellio.Bundle) []string {
	var out []string
	for k := range b {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
