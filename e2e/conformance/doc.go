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
//   - our own corpus (corpus/<name>/main.go), short programs written from the
//     Go specification, each compiled and run by the go command (the oracle:
//     its output is what `go run` prints), then run through gocl pasted whole
//     and in notebook form (declarations, then the body of main as top-level
//     statements).
//
// Each result is one Class. The tests fail only on regressions: against
// baseline.json (regenerated with -update), and, for yaegi's programs,
// wherever gocl does worse than plain yaegi on a program yaegi passes and no
// entry of knownGaps explains why.
package conformance
