// Package stdexamples runs the Example functions of the Go standard library
// through the real gocl binary: programs nobody here wrote, each with its
// own oracle.
//
// Extract reads the example files of Packages under $(go env GOROOT)/src
// and makes every example that go test checks against an ordered
// "// Output:" comment a whole program (go/doc's playground form: package
// main, the imports and declarations of its file that it uses, its body as
// func main). Examples with unordered output, with no output comment, or
// that use names of other files or of the package itself are left out, each
// with its reason.
//
// TestStdExamples runs each program as e2e/conformance runs its corpus:
// pasted whole as one cell, and in notebook form (declarations, then main's
// body as top-level statements: conformance.NotebookForm), each followed by
// a cell that prints nothing, through `gocl run` in a fresh process, and
// classifies the outcome with conformance.Classify against the output
// comment, trimmed as go test trims both sides. Where gocl does not pass,
// the go command builds and runs the program (GoRun): the comment was
// checked inside the package's test binary, whose environment a program
// does not have (the time package's tests set the local zone to Pacific
// time; a type of an example is pkg_test.T there and main.T here), and
// where go run prints otherwise, go run on this machine is the oracle (a
// gocl run that prints what it prints is a go-answer).
//
// The test fails on every wrong answer, hang or crash that Quarantine does
// not name with a reason, and on every Quarantine entry that no longer goes
// wrong. It is an end-to-end test: without GOCL_BIN it is skipped.
//
//	go build -o bin/gocl . && export GOCL_BIN=$PWD/bin/gocl
//	go test ./e2e/stdexamples/ -v                                   # all ~590 examples, both forms
//	go test ./e2e/stdexamples/ -stride 4                            # a fixed quarter of them
//	go test ./e2e/stdexamples/ -only strings.ExampleFields -v       # the examples whose name contains it
//	go test ./e2e/stdexamples/ -results /tmp/stdexamples.md         # counts and every example that does not pass
//
// -program-timeout (20s) bounds each program; -workers (2) runs that many
// at once.
package stdexamples
