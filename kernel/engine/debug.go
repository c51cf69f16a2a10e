package engine

import (
	"fmt"
	"go/printer"
	"go/token"
	"os"
)

// debugRewrite, set by GOCL_DEBUG_REWRITE=1 in the engine's environment,
// writes every cell as yaegi is given it (after the engine's rewrites) to
// the engine's standard error: for finding which rewrite a failure comes
// from.
var debugRewrite = os.Getenv("GOCL_DEBUG_REWRITE") != ""

func dumpRewrite(name string, ps []*parsed) {
	fmt.Fprintf(OriginalStderr(), "--- %s as rewritten:\n", name)
	for _, p := range ps {
		if p.body != nil {
			printer.Fprint(OriginalStderr(), token.NewFileSet(), p.body)
		} else if p.file != nil {
			printer.Fprint(OriginalStderr(), token.NewFileSet(), p.file)
		}
		fmt.Fprintln(OriginalStderr())
	}
}
