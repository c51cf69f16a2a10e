package cli

import (
	"io"

	"github.com/seed43a1e1ab/gocl/kernel/nbrun"
)

func runCmd(args []string, stdout, stderr io.Writer) int {
	cfg := nbrun.Default
	cfg.NewEngine = func() (nbrun.Runner, error) { return NewEngine() }
	return cfg.Main(args, stdout, stderr)
}
