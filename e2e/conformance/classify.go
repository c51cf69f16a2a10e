package conformance

import (
	"regexp"
	"strings"
)

// Class is what a run of one program came to.
type Class string

// The classes, from best to worst.
const (
	// Pass: Go's answer (the declared or oracle output, or the declared
	// error).
	Pass Class = "pass"
	// GoAnswer: the run printed what the go command's build of the program
	// prints, which is not what the program declares (yaegi's programs
	// declare yaegi's output; a few of them are not Go's: loop variables
	// before Go 1.22, yaegi's restricted mode, yaegi's names of unexported
	// fields). Only yaegi's programs have it: see GoOracle.
	GoAnswer Class = "go-answer"
	// ClearError: the run stopped with an error before printing anything Go
	// would not print, and the error is a refusal in the user's terms: not
	// a runtime panic Go would not raise, no interpreter internals, and, for
	// a program Go compiles, no diagnostic that calls it invalid Go
	// ("undefined: clear", a syntax error) unless the error also says it is
	// a limit of cells ("not supported", "in a cell", ...).
	ClearError Class = "clear-error"
	// UnclearError: the run stopped with an error and printed nothing wrong,
	// but the error is not a clear refusal: a panic at run time that is not
	// Go's (where Go runs on, or Go panics with other words), a message
	// that leaks the interpreter (reflect's words, yaegi's frames, fmt's
	// %!verb(...) marks), or a false diagnostic on valid Go.
	UnclearError Class = "unclear-error"
	// Wrong: the run printed something Go does not print, or finished
	// without the error Go reports.
	Wrong Class = "wrong-answer"
	// Hang: the run did not finish within the per-program time limit.
	Hang Class = "hang"
	// Crash: the process running the program died (no notebook written, no
	// result reported).
	Crash Class = "crash"
)

// Classes lists every class in report order.
var Classes = []Class{Pass, GoAnswer, ClearError, UnclearError, Wrong, Hang, Crash}

// rank orders classes for regression checks: a move to a higher rank is a
// regression. Wrong answers, hangs and crashes are equally bad.
func (c Class) rank() int {
	switch c {
	case Pass, GoAnswer:
		return 0
	case ClearError:
		return 1
	case UnclearError:
		return 2
	default:
		return 3
	}
}

// Worse reports whether c is a worse result than than.
func (c Class) Worse(than Class) bool { return c.rank() > than.rank() }

// Want is what Go does with a program.
type Want struct {
	// Stdout is what the program prints on standard output.
	Stdout string
	// Error, when set, is a text the error must contain: the program does
	// not compile, or (for yaegi's programs) fails as its comment declares.
	Error string
	// Panic, when set, is the message of the panic that ends the program
	// after it printed Stdout (the oracle's "panic: ..." line, without the
	// prefix).
	Panic string
}

// Outcome is what a run of a program did.
type Outcome struct {
	// Stdout is what the run printed on standard output.
	Stdout string
	// Output is what the run printed on standard output and standard
	// error, in the order a notebook shows them.
	Output string
	// Err is the error the run ended with (name, message and traceback
	// joined by newlines), or "".
	Err string
	// Runtime says the error is a panic at run time, not a refusal to
	// compile.
	Runtime bool
	// Hung and Crashed say the run did not end by itself.
	Hung, Crashed bool
}

// leakMarkers are texts that show an error speaks of the interpreter's
// internals instead of the user's program: reflect's words, yaegi's frames
// (its package path followed by a name: the path alone may be what the
// program imports)
// and compiler stages, fmt's bad-verb marks, and gocl's own wording for "yaegi
// crashed on this code" (honest, but it names no construct).
var leakMarkers = []string{"reflect:", "reflect.Value", "reflect.Set", "yaegi/interp.", "interp.(*", "%!",
	"CFG ", "the interpreter (yaegi) failed"}

// leaks reports whether an error text shows interpreter internals.
func leaks(err string) bool {
	for _, m := range leakMarkers {
		if strings.Contains(err, m) {
			return true
		}
	}
	return false
}

// diagnosticRE matches the wording of a compiler's diagnostic: an error
// that says the program is not valid Go.
var diagnosticRE = regexp.MustCompile(`^SyntaxError|undefined: |undefined selector|definition loop|cannot use |` +
	`mismatched types|redeclared|expected |is not a type|invalid operation|assignment mismatch|` +
	`not enough arguments|too many arguments|missing return|declared and not used|non-bool`)

// refusalMarkers are phrases with which an error says that what fails is a
// limit of cells, not the user's Go.
var refusalMarkers = []string{"not supported", "unsupported", "in a cell", "in cells", "cells can", "gocl cannot", "workaround"}

// falseDiagnostic reports whether an error on a program Go compiles calls
// the program invalid without saying that the limit is gocl's.
func falseDiagnostic(err string) bool {
	if !diagnosticRE.MatchString(err) {
		return false
	}
	for _, m := range refusalMarkers {
		if strings.Contains(err, m) {
			return false
		}
	}
	return true
}

// Classify compares an outcome with what Go does. Output is compared
// exactly; callers normalize both sides first where the corpus says to
// (yaegi's programs compare trimmed output, as yaegi's own test does).
func Classify(w Want, o Outcome) Class {
	switch {
	case o.Hung:
		return Hang
	case o.Crashed:
		return Crash
	}
	if w.Error != "" {
		switch {
		case o.Err == "":
			return Wrong
		case strings.Contains(o.Err, w.Error):
			return Pass
		case leaks(o.Err) || o.Runtime:
			return UnclearError
		default:
			return ClearError
		}
	}
	if o.Err == "" {
		if w.Panic == "" && o.Stdout == w.Stdout {
			return Pass
		}
		return Wrong
	}
	if w.Panic != "" && o.Stdout == w.Stdout && strings.Contains(o.Err, w.Panic) {
		return Pass
	}
	if !strings.HasPrefix(w.Stdout, o.Stdout) {
		return Wrong
	}
	if leaks(o.Err) || o.Runtime || falseDiagnostic(o.Err) {
		return UnclearError
	}
	return ClearError
}
