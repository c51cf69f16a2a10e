// Package engine runs Jupyter cells of Go code in the yaegi interpreter. It
// never sees a socket: a cell's output goes to a Sink as plain data.
//
// # Cells
//
// A cell may mix imports, declarations and statements in any order, and may
// be a whole program: a leading package clause is ignored, and a func main
// runs once, after the cell's other statements, as go run would run it
// (later cells never run it again; running the cell again does). Its func,
// type and const declarations are package-level, so statements may use them
// wherever they are declared. Its statements run as the body of one
// function, as main's body does: a defer runs once, when the cell ends
// (also by panic); := in an inner block shadows as in Go; return ends the
// cell; and what the statements compute is freed like any Go value. The
// names that the top-level statements declare (x := ..., var x ...) stay
// defined for later cells: they are package-level variables, declared
// before the body runs and assigned by it, and a name declared again with
// the same type stays the same variable. A cell that fails keeps what its
// statements set before the failure; the names of the statements it did not
// reach are dropped (a later cell that uses one gets "undefined"). A cell
// with a syntax error runs nothing.
//
// Redefining a var, a const or a func in a later cell replaces it. A type
// cannot change once declared (yaegi would silently keep the old one):
// declaring it again identically is ignored, declaring it differently is a
// CompileError that names the type and runs nothing.
//
// fmt, os, time, math, strings, sort, errors and sync, plus
// Options.Preimports, need no import line. Importing a package again under
// the same name does nothing; reusing a name for another package, or
// importing a package that has no symbol table, is an ImportError.
//
// # Output
//
// At the first New the process's fds 1 and 2 become pipes read by two
// goroutines (OriginalStdout and OriginalStderr keep the real ones, and the Go
// runtime's crash reports go to the real stderr). Everything written to them,
// by interpreted code, compiled code or C, reaches the running cell's
// Sink.Stream while the cell runs; when Execute returns, C stdio has been
// flushed and every byte written during the cell has been delivered. Order is
// kept within a stream, not between stdout and stderr. Output written while no
// cell runs (by a goroutine) is kept, up to 1 MiB, for the next cell. yaegi's
// print and println builtins write to stdout.
//
// # Results
//
// When a cell ends in an expression, its value is the result: text/plain is
// the value as %v prints it (String or Error methods included; strings are
// quoted with %q), and a value with HTML() string, Markdown() string, SVG()
// string, PNG() []byte or JPEG() []byte adds text/html, text/markdown,
// image/svg+xml, image/png or image/jpeg (images base64). A call with no
// result shows nothing; a call with several results shows them separated by
// spaces, except the (int, error) results of a write with a nil error
// (fmt.Println, w.Write), which show nothing.
//
// # Errors
//
// A failed cell gives one CellError: SyntaxError, CompileError, ImportError,
// panic (or the panic value's ErrorName()), Interrupted, Exit (os.Exit with a
// non-zero code stops the cell, not the kernel) or Busy. The first traceback
// line is "Name: Value"; then the line and column in the cell, the line quoted
// and a caret. For a panic the position is the cell statement that was
// running, followed by the interpreted functions it was inside, innermost
// last; yaegi does not report the line inside a function. Extra lines of the
// panic value's Error text come last.
//
// # Goroutines
//
// A panic in a goroutine that a cell started does not end the kernel. Every
// go statement of a cell, in its top-level statements and in the functions
// it declares, is rewritten before yaegi compiles it so that the goroutine
// recovers; the function value and the arguments are still evaluated at the
// go statement, as in Go. The panic is reported on stderr, to the cell that
// runs at that moment or else to the next one, as one line such as
//
//	panic in a goroutine started by cell #3, line 2 (go work(i)): boom (goroutine stopped; the kernel keeps running)
//
// with the panic value's ErrorName() in place of "panic" when it has one,
// and its further lines after. Functions passed to time.AfterFunc and
// context.AfterFunc are guarded the same way. A go statement that the
// rewrite cannot express (a multi-value call as its only argument) runs
// unguarded, with a note on stderr. The variables a for statement declares
// are fresh in each iteration, as since Go 1.22 (yaegi shares them), unless
// the loop body of a three-clause loop assigns them.
//
// # Interrupts and stdin
//
// Cancelling Execute's context stops interpreted code at its next step,
// time.Sleep included; a compiled call that does not watch cellctx cannot be
// stopped, and the next cell waits for it (up to a few seconds, then Busy).
// An interrupt stops only the request's own goroutine (interrupt.go):
// goroutines the cells started keep running, and func values, closures and
// widget callbacks made before it work as before.
//
// os.Stdin and fmt.Scan* in cells read lines obtained from Sink.Input, with
// the text the cell printed last on the current line as the prompt. An empty
// reply is the end of input (io.EOF, once); an Input error fails the read.
package engine
