package stdlib

import (
	"fmt"
	"io"
	"log"
	"os"
)

// yaegi's extractor maps a few symbols of os and log to local names
// (osExit, logFatal...) so that interpreted code cannot end the process it
// runs in. They are defined here.

// Exit is the panic value of os.Exit in interpreted code. A host that wants
// os.Exit to end something (gocl ends the cell) overrides os.Exit or
// recovers this value.
type Exit int

func (e Exit) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

// osExit is os.Exit for interpreted code: it panics with Exit(code).
func osExit(code int) { panic(Exit(code)) }

// Refusal is the panic value with which interpreted code is stopped where
// it asks for what a cell may not have; its message says what and what to
// do instead. A host reports it under its ErrorName.
type Refusal string

func (r Refusal) Error() string { return string(r) }

// ErrorName names the refusal in a host's error report.
func (Refusal) ErrorName() string { return "NotSupported" }

// osFindProcess is os.FindProcess, except for the interpreter's own process,
// which is the kernel's: a cell that signalled or killed it would end the
// kernel. Go's os.FindProcess does not fail on Unix, so a program does not
// expect an error there (returning one printed what Go never prints): the
// call stops the cell instead.
func osFindProcess(pid int) (*os.Process, error) {
	if pid == os.Getpid() {
		panic(Refusal("os.FindProcess(os.Getpid()) is not supported in a cell: the process is the kernel's, " +
			"which a signal from the cell would stop; os.Getpid() gives the pid, and os/exec starts a process of the cell's own"))
	}
	return os.FindProcess(pid)
}

// log's package-level Fatal functions log, then end as os.Exit(1) does in
// interpreted code: they panic with Exit(1), as log.Fatal is Print and
// os.Exit(1). (Panicking with the message instead, like log.Panic, let a
// deferred recover in the program go on, where Go's program has ended.)
func logFatal(v ...any)                 { log.Output(2, fmt.Sprint(v...)); osExit(1) }
func logFatalf(format string, v ...any) { log.Output(2, fmt.Sprintf(format, v...)); osExit(1) }
func logFatalln(v ...any)               { log.Output(2, fmt.Sprintln(v...)); osExit(1) }

// logLogger is log.Logger for interpreted code: its Fatal methods log and
// panic with Exit(1), as logFatal does.
type logLogger struct{ l *log.Logger }

// logNew is log.New for interpreted code.
func logNew(out io.Writer, prefix string, flag int) *logLogger {
	return &logLogger{log.New(out, prefix, flag)}
}

func (l *logLogger) Fatal(v ...any)                 { l.l.Print(v...); osExit(1) }
func (l *logLogger) Fatalf(format string, v ...any) { l.l.Printf(format, v...); osExit(1) }
func (l *logLogger) Fatalln(v ...any)               { l.l.Println(v...); osExit(1) }
func (l *logLogger) Flags() int                     { return l.l.Flags() }
func (l *logLogger) Output(depth int, s string) error {
	return l.l.Output(depth+1, s)
}
func (l *logLogger) Panic(v ...any)                 { l.l.Panic(v...) }
func (l *logLogger) Panicf(format string, v ...any) { l.l.Panicf(format, v...) }
func (l *logLogger) Panicln(v ...any)               { l.l.Panicln(v...) }
func (l *logLogger) Prefix() string                 { return l.l.Prefix() }
func (l *logLogger) Print(v ...any)                 { l.l.Print(v...) }
func (l *logLogger) Printf(format string, v ...any) { l.l.Printf(format, v...) }
func (l *logLogger) Println(v ...any)               { l.l.Println(v...) }
func (l *logLogger) SetFlags(flag int)              { l.l.SetFlags(flag) }
func (l *logLogger) SetOutput(w io.Writer)          { l.l.SetOutput(w) }
func (l *logLogger) SetPrefix(prefix string)        { l.l.SetPrefix(prefix) }
func (l *logLogger) Writer() io.Writer              { return l.l.Writer() }

// Logger returns the *log.Logger underneath, for compiled code that wants one
// (http.Server.ErrorLog...).
func (l *logLogger) Logger() *log.Logger { return l.l }
