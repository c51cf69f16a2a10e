package engine

import "testing"

// TestAssignmentsToPackageVariables: yaegi ignored these (os.Args,
// flag.CommandLine) or refused to compile them (runtime.MemProfileRate).
func TestAssignmentsToPackageVariables(t *testing.T) {
	e := newEngine(t)
	for _, c := range []struct{ code, want string }{
		{"os.Args = []string{\"a\", \"b\"}\nfmt.Println(os.Args, len(os.Args))", "[a b] 2\n"},
		{"func clearArgs() { os.Args = nil }\nclearArgs()\nfmt.Println(os.Args == nil)\nos.Args = []string{\"prog\"}", "true\n"},
		{"import \"flag\"\nflag.CommandLine = flag.NewFlagSet(\"x\", flag.ContinueOnError)\nfmt.Println(flag.CommandLine.Name())", "x\n"},
		{"import \"runtime\"\nold := runtime.MemProfileRate\nruntime.MemProfileRate = 7\nruntime.MemProfileRate++\n" +
			"runtime.MemProfileRate += 2\nruntime.MemProfileRate *= 3\nfmt.Println(runtime.MemProfileRate)\nruntime.MemProfileRate = old", "30\n"},
		// A local named like a package is the local.
		{"func shadow() int { os := struct{ Args int }{}; os.Args = 4; return os.Args }\nfmt.Println(shadow(), len(os.Args))", "4 1\n"},
	} {
		if _, r := ok(t, e, c.code); r.text("stdout") != c.want {
			t.Errorf("%s\nprinted %q, want %q (Go's)", c.code, r.text("stdout"), c.want)
		}
	}
}
