package engine

// What a cell sees of the process it runs in, made what `go run prog` gives
// a program: the cells run in the engine's process (yaegi interprets them
// there), whose command line, flags and exit are the kernel's, not the
// program's.
//
//   - os.Args is the program name alone, as `go run prog` gives it, not the
//     engine's command line (flag.Parse parsed that: yaegi's flag0 printed
//     "Narg: 3" where Go prints "Narg: 0");
//   - flag.Parse parses os.Args[1:] of the cell, and a bad flag ends the
//     cell as Go's program ends (status 2, or 0 for -help) instead of
//     flag's os.Exit ending the kernel;
//   - os.Exit, and log.Fatal (kernel/symbols/stdlib), end the cell with
//     their status, and a deferred recover does not stop them: in Go, a
//     program that calls os.Exit has ended, and nothing deferred runs on
//     (yaegi's restricted1 printed "recover: 1" where Go prints nothing).
//
// This is hosting, not a yaegi bug; it is fenced here so that the engine's
// overrides stay one list.

import (
	"flag"
	"fmt"
	"io"
	"log"
	"log/slog"
	"os"
	"reflect"
	"sync/atomic"

	"github.com/seed43a1e1ab/gocl/kernel/symbols/stdlib"
	"github.com/traefik/yaegi/interp"
)

// exitRequest is the panic value of os.Exit in a cell (and of log.Fatal,
// which kernel/symbols/stdlib makes panic with stdlib.Exit(1)): the kernel
// must not exit with it; runError turns it into the cell's Exit error.
type exitRequest = stdlib.Exit

// exiting is set by an os.Exit, log.Fatal or failed flag.Parse in a cell,
// until the next cell starts: what the cell writes after it (its deferred
// calls still run while the exit unwinds the cell, and its goroutines go
// on) is not shown, as a Go program shows nothing after os.Exit.
var exiting atomic.Bool

// exitCell ends the cell as os.Exit(code) ends a Go program: what it wrote
// before is delivered, nothing it writes after (see exiting).
func exitCell(code int) {
	if err := flushAll(drainTimeout); err != nil {
		fmt.Fprintf(OriginalStderr(), "gocl: %v\n", err)
	}
	exiting.Store(true)
	panic(exitRequest(code))
}

// cellArgs is os.Args in cells: the program's name, as `go run` gives it.
var cellArgs = os.Args[:min(1, len(os.Args))]

// addProcessOverrides adds the symbols above to the engine's overrides ex,
// for the interpreter in, which has the standard library's symbols.
func addProcessOverrides(ex interp.Exports, in *interp.Interpreter) {
	set := func(path, name string, v reflect.Value) {
		if ex[path] == nil {
			ex[path] = map[string]reflect.Value{}
		}
		ex[path][name] = v
	}
	set("os/os", "Args", reflect.ValueOf(&cellArgs).Elem())
	set("flag/flag", "Parse", reflect.ValueOf(cellFlagParse))
	// yaegi gives log's package-level functions a logger of its own (on
	// the interpreter's stderr, which log.SetOutput and SetFlags in a cell
	// change) whose Fatal functions panic with the message, so that a
	// deferred recover went on. Fatal writes through that logger's Output,
	// then ends as os.Exit(1).
	if output, ok := in.Symbols("log")["log"]["Output"].Interface().(func(int, string) error); ok {
		fatal := func(s string) {
			output(3, s)
			exitCell(1)
		}
		set("log/log", "Fatal", reflect.ValueOf(func(v ...any) { fatal(fmt.Sprint(v...)) }))
		set("log/log", "Fatalf", reflect.ValueOf(func(format string, v ...any) { fatal(fmt.Sprintf(format, v...)) }))
		set("log/log", "Fatalln", reflect.ValueOf(func(v ...any) { fatal(fmt.Sprintln(v...)) }))
	}
	addLogDefaultOverrides(set, in.Symbols("log")["log"])
}

// addLogDefaultOverrides makes the cell's log package and the process's
// default logger one, as in a Go program (issue 24): log/slog is compiled
// code that reads and sets the process's log.Default(), while yaegi gives
// the cell's log functions a logger of its own (lsyms), so slog's default
// handler ignored a cell's log.SetOutput and SetFlags (slog.Info printed
// elsewhere, dated), and slog.SetDefault did not reach the cell's
// log.Print. A cell's SetOutput, SetFlags and SetPrefix set both loggers;
// slog.SetDefault, which sends log.Default() to the new handler, sends
// the cell's logger there too.
func addLogDefaultOverrides(set func(path, name string, v reflect.Value), lsyms map[string]reflect.Value) {
	setOutput, ok1 := lsyms["SetOutput"].Interface().(func(io.Writer))
	setFlags, ok2 := lsyms["SetFlags"].Interface().(func(int))
	setPrefix, ok3 := lsyms["SetPrefix"].Interface().(func(string))
	if !ok1 || !ok2 || !ok3 {
		return
	}
	set("log/log", "SetOutput", reflect.ValueOf(func(w io.Writer) { setOutput(w); log.SetOutput(w) }))
	set("log/log", "SetFlags", reflect.ValueOf(func(flag int) { setFlags(flag); log.SetFlags(flag) }))
	set("log/log", "SetPrefix", reflect.ValueOf(func(prefix string) { setPrefix(prefix); log.SetPrefix(prefix) }))
	set("log/slog/slog", "SetDefault", reflect.ValueOf(func(l *slog.Logger) {
		slog.SetDefault(l)
		// slog redirects log.Default() unless l's handler is its own
		// default one, which writes through log.Default().
		if reflect.TypeOf(l.Handler()).String() != "*slog.defaultHandler" {
			setOutput(log.Writer())
			setFlags(log.Flags())
		}
	}))
}

// cellFlagParse is flag.Parse in a cell: flag.CommandLine parses the cell's
// os.Args[1:]. flag.CommandLine exits the process on a bad flag; here it
// reports the error and its usage as it would, then ends the cell with the
// status Go's program exits with.
func cellFlagParse() {
	name := "prog"
	if len(cellArgs) > 0 {
		name = cellArgs[0]
	}
	var args []string
	if len(cellArgs) > 1 {
		args = cellArgs[1:]
	}
	flag.CommandLine.Init(name, flag.ContinueOnError)
	switch err := flag.CommandLine.Parse(args); {
	case err == flag.ErrHelp:
		exitCell(0)
	case err != nil:
		exitCell(2)
	}
}

// recoverNotExit is the hook that recover's value goes through in a cell
// (recovered, yaegi_panics.go), except that an os.Exit or log.Fatal is not
// recovered: it goes on ending the cell.
func recoverNotExit(r any) any {
	if code, ok := panicValue(r).(exitRequest); ok {
		panic(code)
	}
	return recovered(r)
}
