package supervisor

import (
	"strings"
	"testing"
)

func TestExplainNamesTheCause(t *testing.T) {
	cases := []struct {
		name, report string
		limit        int64
		want         []string
	}{
		{"stack overflow", "runtime: goroutine stack exceeds 1000000000-byte limit\nruntime: sp=0xc020160388 stack=[0xc020160000, 0xc040160000]\nfatal error: stack overflow\n\nruntime stack:\nruntime.throw({0x5a2e9a?, 0x0?})\n",
			0, []string{"stack overflow", "unbounded recursion", "runtime: goroutine stack exceeds"}},
		{"map race", "fatal error: concurrent map writes\n\ngoroutine 23 [running]:\ninternal/runtime/maps.fatal({0x1115c7b?, 0x0?})\n",
			0, []string{"concurrent map writes", "sync.Mutex", "goroutine 23 [running]"}},
		{"oom under a limit", "runtime: out of memory: cannot allocate 32212254720-byte block (3997696 in use)\nfatal error: out of memory\n",
			2 << 30, []string{"out of memory", "30 GiB", "2 GiB", "GOCL_MEMORY_LIMIT"}},
		{"lost headline", "\nruntime stack:\nruntime.throw({0x111827c?, 0x2f9b?})\nruntime.sysMapOS(0x3e6c25800000, 0x780000000)\n\ngoroutine 6 [running]:\nruntime.mallocgcLarge(0x1)\n",
			1 << 30, []string{"out of memory", "1 GiB"}},
		{"empty headline", "fatal error: \nfatal error: \nruntime stack:\nruntime.throw({0x111b59a?, 0x20fc?})\nruntime.sysMapOS(0x3f02cc00000, 0x10000000000)\n",
			1 << 30, []string{"out of memory", "1 GiB"}},
		{"lost fault headline", "[signal SIGSEGV: segmentation violation code=0x1 addr=0x7fee2bfff080 pc=0x49eda6]\n\ngoroutine 26 [running]:\nruntime.throw({0x10fab1a?})\nruntime.sigpanic()\nruntime.memmove()\n",
			0, []string{"fault", "SIGSEGV at address 0x7fee2bfff080", "closed cl.PinnedHost"}},
		{"sync misuse, headline lost", "\ngoroutine 22 [running]:\ninternal/sync.fatal({0x1128a4a?, 0x0?})\n\t/usr/local/go/src/runtime/panic.go:1191 +0x18\n",
			0, []string{"misuse of package sync", "internal/sync.fatal"}},
		{"PoCL kernel", "gocl-fault: SIGSEGV pc=0x7f3a1c0 addr=0x3b9aca000 in /root/.cache/pocl/kcache/AB/CD/k/program.so (_pocl_kernel_k_workgroup)\n",
			0, []string{"SIGSEGV in /root/.cache/pocl/kcache", "_pocl_kernel_k", "addr=0x3b9aca000", "OpenCL kernel or the driver wrote or read out of bounds"}},
		{"stdlib goroutine panic", "panic: reader exploded\n\ngoroutine 40 [running]:\nmain.bad.Read()\n",
			0, []string{"panic: reader exploded", "net/http reading your io.Reader", "goroutine 40"}},
		{"Go's own signal report", "SIGSEGV: segmentation violation\nPC=0x7f0000001000 m=5 sigcode=1 addr=0x0\nsignal arrived during cgo execution\n\ngoroutine 1 [syscall]:\n",
			0, []string{"SIGSEGV", "pc=0x7f0000001000", "invalid address"}},
	}
	for _, c := range cases {
		name, value, evidence := crash{report: c.report, limit: c.limit}.explain()
		text := name + ": " + value + "\n" + strings.Join(evidence, "\n")
		if name != "EngineCrash" {
			t.Errorf("%s: name %q", c.name, name)
		}
		for _, w := range c.want {
			if !strings.Contains(text, w) {
				t.Errorf("%s: explanation lacks %q:\n%s", c.name, w, text)
			}
		}
	}
}

func TestLibraryOfAFaultingAddress(t *testing.T) {
	maps := "7f0000000000-7f0000100000 r-xp 00000000 08:01 1234 /usr/lib/x86_64-linux-gnu/libpocl.so.2.11.0\n" +
		"7f0000200000-7f0000300000 r-xp 00000000 00:00 0 \n"
	c := crash{maps: maps}
	if got := c.library("0x7f0000000400"); !strings.HasSuffix(got, "libpocl.so.2.11.0") {
		t.Errorf("library = %q", got)
	}
	if got := c.library("0x7f0000200010"); !strings.Contains(got, "anonymous") {
		t.Errorf("library of anonymous memory = %q", got)
	}
	if got := c.library("0x10"); got != "" {
		t.Errorf("library of an unmapped address = %q", got)
	}
}

func TestSplitCrashReportKeepsTheCellsOutput(t *testing.T) {
	out, rep := splitCrashReport("warning: x\nfatal error: all goroutines are asleep\n\ngoroutine 1")
	if out != "warning: x\n" || !strings.HasPrefix(rep, "fatal error: all goroutines") {
		t.Errorf("split = %q, %q", out, rep)
	}
	if out, rep := splitCrashReport("a panic: in the middle of a line stays output\n"); rep != "" || out == "" {
		t.Errorf("split of ordinary output = %q, %q", out, rep)
	}
	if got := stripMarkers("a\x00\x1bgocl-drain:12\x00b"); got != "ab" {
		t.Errorf("stripMarkers = %q", got)
	}
}

func TestCutAgainstFindsAReportThatLostItsHead(t *testing.T) {
	report := "panic: reader exploded [recovered, repanicked]\n\ngoroutine 14 [running]:\nmain.f()\n"
	out, rest := cutAgainst("posting done\nreader exploded [recovered, repanicked]\n\ngoroutine 14 [running]:\n", report)
	if out != "posting done\n" || !strings.HasPrefix(rest, "reader exploded") {
		t.Errorf("cut = %q, %q", out, rest)
	}
	if out, rest := cutAgainst("just output\n", report); out != "just output\n" || rest != "" {
		t.Errorf("cut of output = %q, %q", out, rest)
	}
}

func TestAbortNamesTheMemoryLimit(t *testing.T) {
	pocl := "gocl: ./lib/CL/pocl_util.c:789: pocl_create_migration_commands: Assertion `p->mem_ptr != NULL' failed.\n"
	for _, c := range []struct {
		name, report string
		limit        int64
		want, not    []string
	}{
		{"PoCL under a limit", pocl, 2 << 30, []string{"SIGABRT", "assertion", "allocation", "memory limit of 2 GiB", "GOCL_MEMORY_LIMIT", "mem_ptr != NULL"}, []string{"corrupted"}},
		{"PoCL, no limit", pocl, 0, []string{"SIGABRT", "allocation"}, []string{"GOCL_MEMORY_LIMIT"}},
		{"no report", "", 2 << 30, []string{"SIGABRT", "corrupted C heap", "memory limit is 2 GiB"}, []string{"allocation of"}},
	} {
		_, value, evidence := crash{report: c.report, limit: c.limit}.abort()
		text := value + "\n" + strings.Join(evidence, "\n")
		for _, w := range c.want {
			if !strings.Contains(text, w) {
				t.Errorf("%s: %q lacks %q", c.name, text, w)
			}
		}
		for _, w := range c.not {
			if strings.Contains(text, w) {
				t.Errorf("%s: %q has %q", c.name, text, w)
			}
		}
	}
	if out, rep := splitCrashReport("buffer 6\n" + pocl); out != "buffer 6\n" || rep != pocl {
		t.Errorf("splitCrashReport keeps the assertion as output: %q, %q", out, rep)
	}
}
