package engine

import (
	"flag"
	"io"
	"log"
	"log/slog"
	"strings"
	"testing"
)

// TestCellCommandLine checks that a cell sees the command line `go run prog`
// gives a program, not the engine's: os.Args is the program name alone, and
// flag.Parse finds no arguments.
func TestCellCommandLine(t *testing.T) {
	e := newEngine(t)
	_, r := ok(t, e, "import \"flag\"\nimport \"os\"\nn := flag.Int(\"n\", 7, \"count\")\nflag.Parse()\nfmt.Println(len(os.Args), flag.NArg(), *n, flag.Parsed())")
	expect(t, "len(os.Args), NArg, -n, Parsed", r.text("stdout"), "1 0 7 true\n")
	// A bad flag ends the cell as Go's program exits (status 2), not the
	// kernel. (A cell cannot set os.Args: yaegi ignores an assignment to a
	// compiled package's variable; the test sets the cell's command line.)
	defer func(saved []string) { cellArgs = saved }(cellArgs)
	cellArgs = []string{"prog", "-n", "3", "rest"}
	_, r = ok(t, e, "flag.Parse()\nfmt.Println(*n, flag.Args())")
	expect(t, "-n 3 rest", r.text("stdout"), "3 [rest]\n")
	cellArgs = []string{"prog", "-bad"}
	flag.CommandLine.SetOutput(io.Discard) // the usage, which lists this test binary's flags too
	defer flag.CommandLine.SetOutput(nil)
	err := fails(t, e, "flag.Parse()\nfmt.Println(\"not printed\")")
	if err.Name != "Exit" || !strings.Contains(err.Value, "os.Exit(2)") {
		t.Errorf("a bad flag: %s: %s, want the cell's Exit with status 2", err.Name, err.Value)
	}
	_, r = ok(t, e, "fmt.Println(\"kernel alive\")")
	expect(t, "the next cell", r.text("stdout"), "kernel alive\n")
}

// TestExitNotRecovered checks that os.Exit and log.Fatal end the cell even
// under a deferred recover, as they end a Go program.
func TestExitNotRecovered(t *testing.T) {
	e := newEngine(t)
	for _, c := range []struct{ name, code string }{
		{"os.Exit", "import \"os\"\nfunc f() {\n\tdefer func() { fmt.Println(\"recovered:\", recover()) }()\n\tos.Exit(3)\n}\nf()\nfmt.Println(\"not printed\")"},
		{"log.Fatal", "import \"log\"\nfunc g() {\n\tdefer func() { fmt.Println(\"recovered:\", recover()) }()\n\tlog.Fatal(\"boom\")\n}\ng()\nfmt.Println(\"not printed\")"},
		{"a logger's Fatalf", "import \"bytes\"\nvar buf bytes.Buffer\nfunc h() {\n\tdefer func() { fmt.Println(\"recovered:\", recover()) }()\n\tlog.New(&buf, \"l: \", 0).Fatalf(\"%d\", 1)\n}\nh()"},
	} {
		res, r := run(t, e, c.code)
		if res.Err == nil || res.Err.Name != "Exit" {
			t.Errorf("%s under recover: error %+v, want the cell's Exit", c.name, res.Err)
		}
		if out := r.text("stdout"); out != "" {
			t.Errorf("%s under recover printed %q, want nothing (Go's program has ended)", c.name, out)
		}
	}
	_, r := ok(t, e, "fmt.Println(buf.String())\nfunc k() (r any) {\n\tdefer func() { r = recover() }()\n\tpanic(\"p\")\n}\nfmt.Println(k())")
	expect(t, "the logger's output, and a panic still recovered", r.text("stdout"), "l: 1\n\np\n")
}

// TestFindOwnProcess checks that a cell asking for the kernel's own process
// is stopped with a refusal that says what to do, where Go's FindProcess
// would not fail (an error value printed what Go never prints).
func TestFindOwnProcess(t *testing.T) {
	e := newEngine(t)
	err := fails(t, e, "import \"os\"\np, err := os.FindProcess(os.Getpid())\nfmt.Println(p, err)")
	if err.Name != "NotSupported" || !strings.Contains(err.Value, "os.FindProcess(os.Getpid()) is not supported in a cell") {
		t.Errorf("os.FindProcess(os.Getpid()): %s: %s", err.Name, err.Value)
	}
	_, r := ok(t, e, "q, err := os.FindProcess(os.Getppid())\nfmt.Println(q.Pid == os.Getppid(), err)")
	expect(t, "another process", r.text("stdout"), "true <nil>\n")
}

// TestExitShowsNothingAfter: a Go program shows nothing after os.Exit or
// log.Fatal; a cell's deferred calls, which still run while the exit
// unwinds it, print nothing either, and the next cell prints again.
func TestExitShowsNothingAfter(t *testing.T) {
	e := newEngine(t)
	for _, code := range []string{
		"import \"os\"\nfunc f() {\n\tdefer fmt.Println(\"f's defer\")\n\tfmt.Println(\"in f\")\n\tos.Exit(3)\n}\n" +
			"defer fmt.Println(\"cell's defer\")\nfmt.Println(\"before\")\nf()\nfmt.Println(\"after\")",
		"import \"log\"\nlog.SetFlags(0)\nlog.SetOutput(os.Stdout)\ndefer fmt.Println(\"cell's defer\")\nfmt.Println(\"before\")\nlog.Fatal(\"in f\")",
	} {
		res, r := run(t, e, code)
		if res.Err == nil || res.Err.Name != "Exit" {
			t.Fatalf("%s\nended with %v, want the Exit error", code, res.Err)
		}
		if got := r.text("stdout"); got != "before\nin f\n" {
			t.Errorf("%s\nprinted %q, want %q (what go run prints)", code, got, "before\nin f\n")
		}
		if _, r := ok(t, e, "fmt.Println(\"next\")"); r.text("stdout") != "next\n" {
			t.Errorf("the next cell printed %q", r.text("stdout"))
		}
	}
}

// TestLogDefaultShared checks that a cell's log package and log/slog share
// the default logger, as in Go: log.SetOutput and SetFlags reach slog's
// default handler, and slog.SetDefault reaches log.Print.
func TestLogDefaultShared(t *testing.T) {
	w, flags, prefix, def := log.Writer(), log.Flags(), log.Prefix(), slog.Default()
	t.Cleanup(func() { slog.SetDefault(def); log.SetOutput(w); log.SetFlags(flags); log.SetPrefix(prefix) })
	e := newEngine(t)
	_, r := ok(t, e, "import (\n\"bytes\"\n\"log\"\n\"log/slog\"\n)\nvar buf bytes.Buffer\nlog.SetFlags(0)\nlog.SetOutput(&buf)\nlog.Print(\"p\")\nslog.Info(\"a\")\n"+
		"noTime := func(g []string, a slog.Attr) slog.Attr { if a.Key == slog.TimeKey { return slog.Attr{} }; return a }\n"+
		"slog.SetDefault(slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{ReplaceAttr: noTime})))\nlog.Print(\"b\")\nfmt.Print(buf.String())")
	expect(t, "log and slog", r.text("stdout"), "p\nINFO a\nlevel=INFO msg=b\n")
}
