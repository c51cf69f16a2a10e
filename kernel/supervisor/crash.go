package supervisor

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/seed43a1e1ab/gocl/kernel/cellio"
)

// crashLog keeps the tail of the engine's own stderr: the Go runtime's
// crash report and gocl's notes.
type crashLog struct {
	mu  sync.Mutex
	buf []byte
}

const crashLogMax = 256 << 10

func (c *crashLog) add(s string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.buf = append(c.buf, s...)
	if len(c.buf) > crashLogMax {
		c.buf = append([]byte(nil), c.buf[len(c.buf)-crashLogMax:]...)
	}
}

func (c *crashLog) text() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return string(c.buf)
}

// mapsSnapshot is /proc/PID/maps of a crashing engine, read while it prints
// its report, to name the library a faulting address belongs to.
type mapsSnapshot struct {
	once sync.Once
	text string
}

func (m *mapsSnapshot) take(pid int) {
	m.once.Do(func() {
		b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/maps", pid))
		m.text = string(b)
	})
}

// crash is what the supervisor knows about an engine process that died.
type crash struct {
	report string           // the engine's stderr (the runtime's crash report)
	state  *os.ProcessState // how it ended
	maps   string           // its memory map, if read in time
	frozen bool             // it stopped answering and was killed
	limit  int64            // its memory limit in bytes, 0 when none
}

var (
	signalLine = regexp.MustCompile(`\[signal (SIG[A-Z]+)[^\]]* addr=(0x[0-9a-f]+)[^\]]* pc=(0x[0-9a-f]+)\]`)
	sigPCLine  = regexp.MustCompile(`(?m)^(SIG[A-Z]+): [^\n]*\nPC=(0x[0-9a-f]+)`)
	oomBlock   = regexp.MustCompile(`runtime: out of memory: cannot allocate (\d+)-byte block`)
	// assertLine is C's assert(3) failing, which aborts the process.
	assertLine = regexp.MustCompile("(?m)^[^\n]*: Assertion `[^\n]*' failed\\.$")
	// allocFailed are the words of C code whose allocation failed.
	allocFailed = regexp.MustCompile(`(?i)out of (host )?memory|cannot allocate|bad_alloc|OUT_OF_HOST_MEMORY|` +
		`MEM_OBJECT_ALLOCATION_FAILURE|failed to allocate|allocation failed|(mem|ptr|buf|data)[a-z_>.-]* != NULL`)
)

// explain turns a crash into the cell's one error: what killed the engine,
// in words, with the evidence.
func (c crash) explain() (name, value string, evidence []string) {
	rep := c.report
	lines := strings.Split(rep, "\n")
	find := func(prefix string) int {
		for i, l := range lines {
			if strings.HasPrefix(l, prefix) {
				return i
			}
		}
		return -1
	}
	// The evidence: the headline and the first lines of the trace.
	trace := func(from int) []string {
		var out []string
		for i := from; i < len(lines) && len(out) < 14; i++ {
			l := strings.TrimRight(lines[i], " \t")
			if l == "" && len(out) > 0 && out[len(out)-1] == "" {
				continue
			}
			out = append(out, l)
		}
		for len(out) > 0 && out[len(out)-1] == "" {
			out = out[:len(out)-1]
		}
		return out
	}
	if i := find("gocl-fault: "); i >= 0 {
		return c.fault(strings.TrimPrefix(lines[i], "gocl-fault: "), trace(i))
	}
	if i := find("fatal error: "); i >= 0 {
		head := strings.TrimPrefix(lines[i], "fatal error: ")
		// Classify by the report's first lines, not the headline alone: a
		// dying runtime's writes may be split among the pipes.
		if near := strings.Join(lines[max(0, i-2):min(len(lines), i+4)], "\n"); !strings.Contains(head, "unexpected signal") {
			for _, k := range []string{"stack overflow", "concurrent map", "out of memory"} {
				if strings.Contains(near, k) && !strings.Contains(head, k) {
					head = strings.TrimSpace(head + " " + k)
				}
			}
		}
		if head == "" {
			// Only the start of the headline came through: tell the
			// cause by the trace.
			head = causeByTrace(rep)
		}
		start := i
		for start > 0 && i-start < 3 && strings.HasPrefix(lines[start-1], "runtime: ") {
			start--
		}
		switch {
		case strings.Contains(head, "stack overflow"):
			return "EngineCrash", "fatal error: stack overflow: a goroutine's stack passed its limit (unbounded recursion?)", trace(start)
		case strings.Contains(head, "concurrent map"):
			return "EngineCrash", "fatal error: " + head + ": two goroutines used one map at once; guard it with a sync.Mutex or use sync.Map", trace(start)
		case strings.Contains(head, "out of memory"):
			v := "fatal error: out of memory"
			if m := oomBlock.FindStringSubmatch(rep); m != nil {
				n, _ := strconv.ParseInt(m[1], 10, 64)
				v += ": an allocation of " + bytesText(n) + " failed"
			}
			if c.limit > 0 {
				v += fmt.Sprintf(" (the engine's memory limit is %s; set GOCL_MEMORY_LIMIT to change it)", bytesText(c.limit))
			}
			return "EngineCrash", v, trace(start)
		case head == "fault" || strings.Contains(head, "unexpected fault address"):
			v := "fatal error: " + head
			m := signalLine.FindStringSubmatch(strings.Join(lines[i:min(len(lines), i+3)], "\n"))
			if m == nil {
				// Its signal line went to another pipe than the headline.
				m = signalLine.FindStringSubmatch(rep)
			}
			if m != nil {
				v += " (" + m[1] + " at address " + m[2] + ")"
			} else {
				v += " (SIGSEGV or SIGBUS)"
			}
			return "EngineCrash", v + ": Go code used memory that is not mapped any more, e.g. a view (Bytes, Float32s...) " +
				"of a closed cl.PinnedHost or an unmapped cl.Mapping; drop views when you close", trace(start)
		case strings.Contains(head, "unexpected signal"):
			return c.signal(lines, i, trace(i))
		}
		return "EngineCrash", "fatal error: " + head, trace(start)
	}
	if i := find("[signal "); i >= 0 && find("panic: ") < 0 {
		// A fatal signal whose "fatal error:" headline was lost.
		if strings.Contains(rep, "runtime.sigpanic") {
			v := "fatal error: fault"
			if m := signalLine.FindStringSubmatch(lines[i]); m != nil {
				v += " (" + m[1] + " at address " + m[2] + ")"
			}
			return "EngineCrash", v + ": Go code used memory that is not mapped any more, e.g. a view (Bytes, Float32s...) " +
				"of a closed cl.PinnedHost or an unmapped cl.Mapping; drop views when you close", trace(i)
		}
		return c.signal(lines, i, trace(i))
	}
	if i := find("goroutine "); i >= 0 && find("panic: ") < 0 {
		// The headline was lost (a dying runtime prints it to the captured
		// fd 2 only, and the engine may have read it from there just
		// before it froze): tell the cause by the trace.
		start := i
		if j := find("runtime stack:"); j >= 0 && j < i {
			start = j
		}
		switch causeByTrace(rep) {
		case "stack overflow":
			return "EngineCrash", "fatal error: stack overflow: a goroutine's stack passed its limit (unbounded recursion?)", trace(start)
		case "concurrent map writes":
			return "EngineCrash", "fatal error: concurrent map writes: two goroutines used one map at once; guard it with a sync.Mutex or use sync.Map", trace(start)
		case "a misuse of package sync (unlock of an unlocked Mutex or RWMutex, or the like)":
			return "EngineCrash", "fatal error: " + causeByTrace(rep), trace(start)
		case "out of memory":
			v := "fatal error: out of memory: an allocation failed"
			if c.limit > 0 {
				v += fmt.Sprintf(" (the engine's memory limit is %s; set GOCL_MEMORY_LIMIT to change it)", bytesText(c.limit))
			}
			return "EngineCrash", v, trace(start)
		}
	}
	if i := find("panic: "); i >= 0 {
		return "EngineCrash", strings.TrimSpace(lines[i]) + " (in a goroutine the engine does not guard: one a compiled package " +
			"started, e.g. net/http reading your io.Reader, called back interpreted code that panicked)", trace(i)
	}
	if m := sigPCLine.FindStringSubmatchIndex(rep); m != nil {
		i := strings.Count(rep[:m[0]], "\n")
		return c.signal(lines, i, trace(i))
	}
	if c.frozen {
		return "EngineCrash", "the engine process stopped answering (frozen while it crashed?) and was killed", trace(max(0, len(lines)-14))
	}
	if c.state != nil {
		if ws, ok := c.state.Sys().(syscall.WaitStatus); ok {
			switch {
			case ws.Signaled() && ws.Signal() == syscall.SIGKILL:
				return "EngineCrash", "the engine process was killed by SIGKILL: from outside (kill -9), or by the system's " +
					"out-of-memory killer (see dmesg)", nil
			case ws.Signaled() && ws.Signal() == syscall.SIGABRT:
				return c.abort()
			case ws.Signaled():
				return "EngineCrash", fmt.Sprintf("the engine process died of %s in C code, which left no report "+
					"(an OpenCL kernel, a driver or a C library)", signalName(ws.Signal())), nil
			case ws.Exited() && ws.ExitStatus() == 2:
				return "EngineCrash", "the engine process exited with status 2, as the Go runtime does after a fatal error " +
					"or an unrecovered panic, and its report was lost; os.Exit(2) in compiled code does the same", nil
			case ws.Exited():
				return "EngineCrash", fmt.Sprintf("the engine process exited with status %d: compiled code called os.Exit(%d) "+
					"or C code called exit (log.Fatal does too)", ws.ExitStatus(), ws.ExitStatus()), nil
			}
		}
	}
	return "EngineCrash", "the engine process died", trace(max(0, len(lines)-14))
}

// abort explains a process that C code aborted (SIGABRT): with the failed
// assertion when C's assert printed one, and with the memory limit when
// what it says is an allocation that failed, as a driver's (PoCL's) does
// when the engine's data segment reached GOCL_MEMORY_LIMIT.
func (c crash) abort() (string, string, []string) {
	var evidence []string
	v := "SIGABRT (abort) in C code (an OpenCL kernel, a driver or a C library)"
	if m := assertLine.FindString(c.report); m != "" {
		v = "SIGABRT: an assertion of C code failed (an OpenCL driver or a C library)"
		evidence = append(evidence, m)
	} else {
		v += ", e.g. a corrupted C heap; it left no report"
	}
	if allocFailed.MatchString(c.report) {
		v += ": an allocation of C code failed"
		if c.limit > 0 {
			v += fmt.Sprintf(", most likely at the engine's memory limit of %s (GOCL_MEMORY_LIMIT: raise it, or use less memory "+
				"at once, e.g. release buffers you no longer need)", bytesText(c.limit))
		}
	} else if c.limit > 0 {
		v += fmt.Sprintf(" (if it ran out of memory: the engine's memory limit is %s; set GOCL_MEMORY_LIMIT to change it)", bytesText(c.limit))
	}
	return "EngineCrash", v, evidence
}

// fault explains the line of kernel/enginehost/faultname: the signal, the
// addresses and the library that faulted.
func (c crash) fault(line string, evidence []string) (string, string, []string) {
	v := line
	if i := strings.Index(line, " in "); i >= 0 {
		sig, _, _ := strings.Cut(line, " ")
		where := line[i+4:]
		v = sig + " in " + where + " (" + strings.TrimSpace(line[len(sig):i]) + ")"
		if strings.Contains(strings.ToLower(where), "pocl") || strings.Contains(where, "kcache") || strings.Contains(where, "JIT") {
			v += ": an OpenCL kernel or the driver wrote or read out of bounds"
		} else {
			v += ": C code (an OpenCL kernel, a driver or a C library) used an invalid address, e.g. out of bounds"
		}
	}
	return "EngineCrash", v, evidence
}

// causeByTrace tells a fatal error whose headline was lost by the frames
// of its trace; "" when they tell nothing.
func causeByTrace(rep string) string {
	switch {
	case strings.Contains(rep, "runtime.newstack") || strings.Contains(rep, "morestack"):
		return "stack overflow"
	case strings.Contains(rep, "maps.fatal"):
		return "concurrent map writes"
	case strings.Contains(rep, "runtime.sysMap") || strings.Contains(rep, "mallocgcLarge") || strings.Contains(rep, "(*mheap).grow"):
		return "out of memory"
	case strings.Contains(rep, "internal/sync.fatal") || strings.Contains(rep, "sync.fatal("):
		return "a misuse of package sync (unlock of an unlocked Mutex or RWMutex, or the like)"
	}
	return ""
}

// signal explains a fatal signal report starting at lines[i].
func (c crash) signal(lines []string, i int, evidence []string) (string, string, []string) {
	text := strings.Join(lines[i:min(len(lines), i+4)], "\n")
	sig, pc, addr := "a signal", "", ""
	if m := signalLine.FindStringSubmatch(text); m != nil {
		sig, addr, pc = m[1], m[2], m[3]
	} else if m := sigPCLine.FindStringSubmatch(strings.Join(lines[i:], "\n")); m != nil {
		sig, pc = m[1], m[2]
	}
	where := c.library(pc)
	v := sig
	if where != "" {
		v += " in " + where
	} else if pc != "" {
		v += " at pc=" + pc
	}
	if addr != "" {
		v += " (address " + addr + ")"
	}
	switch {
	case strings.Contains(strings.ToLower(where), "pocl") || strings.Contains(where, "kcache"):
		v += ": an OpenCL kernel or the driver wrote or read out of bounds"
	case sig == "SIGSEGV" || sig == "SIGBUS":
		v += ": C code (an OpenCL kernel, a driver or a C library) used an invalid address, e.g. out of bounds"
	}
	return "EngineCrash", v, evidence
}

// library names the mapping that holds pc, from the crashing process's maps.
func (c crash) library(pc string) string {
	if pc == "" || c.maps == "" {
		return ""
	}
	addr, err := strconv.ParseUint(strings.TrimPrefix(pc, "0x"), 16, 64)
	if err != nil {
		return ""
	}
	for _, l := range strings.Split(c.maps, "\n") {
		f := strings.Fields(l)
		if len(f) < 1 {
			continue
		}
		lo, hi, ok := strings.Cut(f[0], "-")
		if !ok {
			continue
		}
		a, _ := strconv.ParseUint(lo, 16, 64)
		b, _ := strconv.ParseUint(hi, 16, 64)
		if addr >= a && addr < b {
			if len(f) >= 6 {
				return f[5]
			}
			return "anonymous memory (JIT-compiled code?)"
		}
	}
	return ""
}

func signalName(s syscall.Signal) string {
	switch s {
	case syscall.SIGSEGV:
		return "SIGSEGV (segmentation fault)"
	case syscall.SIGBUS:
		return "SIGBUS (bus error)"
	case syscall.SIGABRT:
		return "SIGABRT (abort, e.g. a corrupted C heap)"
	case syscall.SIGILL:
		return "SIGILL (illegal instruction)"
	case syscall.SIGFPE:
		return "SIGFPE (arithmetic fault)"
	}
	return s.String()
}

// bytesText writes n bytes the way users read them: 2 GiB, 512 MiB.
func bytesText(n int64) string {
	const (
		kib = 1 << 10
		mib = 1 << 20
		gib = 1 << 30
	)
	switch {
	case n >= gib:
		return strconv.FormatFloat(float64(n)/gib, 'g', 4, 64) + " GiB"
	case n >= mib:
		return strconv.FormatInt(n/mib, 10) + " MiB"
	case n >= kib:
		return strconv.FormatInt(n/kib, 10) + " KiB"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

// noteCommCrash tells the next cell that the engine process died while it
// ran a widget callback (a comm message from the front end): the error of a
// comm message goes out with that message as its parent, which front ends
// show in no cell, so the user would see a dead dashboard and nothing else.
func (s *Supervisor) noteCommCrash(res cellio.Result) {
	if res.Err == nil || res.Err.Name != "EngineCrash" {
		return
	}
	var b strings.Builder
	b.WriteString("gocl: a widget callback crashed the engine process: " + res.Err.Value + "\n")
	if len(res.Err.Traceback) > 1 {
		b.WriteString(strings.Join(res.Err.Traceback[1:], "\n") + "\n")
	}
	s.mu.Lock()
	s.note += b.String()
	s.mu.Unlock()
}
