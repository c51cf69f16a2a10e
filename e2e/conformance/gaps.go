package conformance

import "strings"

// Gap is a known reason why gocl does worse than plain yaegi on some of
// yaegi's programs. The yaegi test fails on every program where gocl is
// below yaegi unless a gap matches it; each gap says why it cannot be
// helped yet, and an entry that matches nothing is reported so that it is
// removed.
type Gap struct {
	// Reason says what differs, why, and when the entry goes.
	Reason string
	// Matches reports whether the gap explains gocl's outcome on prog.
	Matches func(prog YaegiProgram, gocl Outcome) bool
}

// KnownGaps are the gaps allowed today. Keep it short: every entry is a
// promise broken ("gocl must never be below plain yaegi on a program").
// A program whose declared output is yaegi's and not Go's needs no entry:
// where gocl prints what the go command's build prints, the class is
// GoAnswer, which is not below plain yaegi (see GoOracle).
var KnownGaps = []Gap{
	{
		// yaegi's programs import packages of yaegi's own _test tree
		// (github.com/traefik/yaegi/_test/foo) or of a GOPATH their comment
		// names; yaegi's test provides that GOPATH. A cell imports only the
		// standard library and gocl's own packages, by design: there is no
		// GOPATH of user packages behind a notebook.
		Reason: "imports a package from yaegi's _test tree or a GOPATH; cells import only the standard library and gocl's packages",
		Matches: func(p YaegiProgram, o Outcome) bool {
			return p.ImportsNonStandard() && strings.Contains(o.Err, "import")
		},
	},
	{
		// restricted2.go declares yaegi's restricted mode: os.FindProcess
		// of the interpreter's own pid fails. Go's finds it (and prints a
		// *os.Process, whose pid differs from run to run, so no run can
		// match it); a cell's process is the kernel's, which a signal from
		// the cell would stop, so gocl stops the cell with a NotSupported
		// refusal that says what to use instead.
		Reason: "os.FindProcess of the kernel's own process is refused in a cell (NotSupported); Go's output shows a pid",
		Matches: func(p YaegiProgram, o Outcome) bool {
			return p.Name == "restricted2.go" && strings.Contains(o.Err, "is not supported in a cell")
		},
	},
	{
		// restricted3.go and eval0.go log with log.Lshortfile. Compiled log
		// asks the Go runtime for its caller, which in a cell is the
		// interpreter: plain yaegi prints its own file and line
		// (restricted.go:39), never the program's, and gocl refuses the flag
		// before the cell runs, saying so (kernel/engine/yaegi_logsource.go).
		Reason: "log.Lshortfile/Llongfile is refused in a cell: compiled log would print the interpreter's file and line, not the cell's",
		Matches: func(p YaegiProgram, o Outcome) bool {
			return (p.Name == "restricted3.go" || p.Name == "eval0.go") && strings.Contains(o.Err, "log.Lshortfile cannot name")
		},
	},
	{
		// convert0.go declares func sort; every cell has package sort
		// without an import (gocl's default imports), so a function of a
		// cell cannot take that name: gocl says so and what to write.
		Reason: "declares func sort, the name of a package every cell has without an import; refused with that reason",
		Matches: func(p YaegiProgram, o Outcome) bool {
			return p.Name == "convert0.go" && strings.Contains(o.Err, "is the name of the package")
		},
	},
}
