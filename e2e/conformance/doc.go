// Package conformance measures how far a gocl cell behaves like Go.
//
// It runs two corpora through the real gocl binary (GOCL_BIN, or one built
// for the run) and classifies every program:
//
//   - yaegi's own test programs (the _test directory of the yaegi module that
//     go.mod requires, read from the module cache), each pasted whole as one
//     cell and compared with the output its trailing "// Output:" comment
//     declares (or the error its "// Error:" comment declares), side by side
//     with plain yaegi (interp.New with stdlib.Symbols, as yaegi's tests do);
//     where gocl prints other than the declaration, the go command builds
//     and runs the program (only those programs, and only those it can
//     build alone: no import of yaegi's _test tree), and a gocl run that
//     did what Go does is a GoAnswer, not a wrong answer (yaegi declares
//     its own output, which for a few programs is not Go's);
//   - our own corpus (corpus/<name>/main.go), short programs written from the
//     Go specification, each compiled and run by the go command (the oracle:
//     its output is what `go run` prints), then run through gocl pasted whole
//     and in notebook form (declarations, then the body of main as top-level
//     statements; a name main declares where the package declares it too
//     is renamed in that form, since a later cell's declaration would
//     redefine it for the earlier cells: see NotebookForm; yaegi's programs
//     get the same notebook form). A program Go refuses to compile is tagged
//     gocl_refused (see RefusedTag): the go command's one compile error is
//     its oracle, and gocl must refuse it with an error that says the same.
//
// A later cell that prints nothing follows every corpus program in both
// forms, so that a func main or a defer that runs again after a later cell
// shows as output Go does not print.
//
// Each result is one Class (see Classify). The tests fail only on
// regressions: against baseline.json, and, for yaegi's programs, wherever
// gocl (pasted whole) does worse than plain yaegi on a program yaegi passes
// and no entry of KnownGaps explains why. A wrong answer the baseline
// records does not fail the test; it is logged as WRONG ANSWER on every run
// (go test -v shows it).
//
// Run, regenerate the baseline, write the results table:
//
//	go build -o bin/gocl . && export GOCL_BIN=$PWD/bin/gocl
//	go test ./e2e/conformance/ -v                        # check
//	go test ./e2e/conformance/ -update                   # rewrite baseline.json (worst of 3 runs per form)
//	go test ./e2e/conformance/ -results /tmp/conformance.md
//
// -program-timeout (10s) bounds each program; -workers (2) runs that many
// at once. -update refuses to write while a program is below plain yaegi
// without a known gap.
package conformance
