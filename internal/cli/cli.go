// Package cli implements gocl's subcommands; main only calls Main.
package cli

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/seed43a1e1ab/gocl/kernel/enginehost"
)

// Version is gocl's release version.
const Version = "0.1.0"

const usage = `gocl: a Jupyter kernel for Go with an OpenCL lab built in.

Usage:
  gocl kernel --connection-file FILE [--log-level LEVEL]   run the kernel (Jupyter does this)
  gocl install [--user | --sys-prefix | --prefix DIR]       register the "Go (gocl)" kernelspec
  gocl run NOTEBOOK.ipynb [-o OUT.ipynb | --inplace] [--allow-errors] [--timeout D] [--kernel-env K=V ...]
                                                            execute a notebook headless, no Jupyter needed
  gocl export NOTEBOOK.ipynb [-o main.go]                  write the notebook as a Go program for go run
  gocl doctor [--fix]                                       diagnose the OpenCL set-up
  gocl packages                                             list what cells can import, and what not and why
  gocl version                                              print gocl's, Go's and yaegi's versions
`

// Main runs the subcommand named by args[0] and returns the exit code.
func Main(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "kernel":
		return kernelCmd(rest, stderr)
	case "install":
		return installCmd(rest, stdout, stderr)
	case "run":
		return runCmd(rest, stdout, stderr)
	case "engine":
		return enginehost.Main(rest, stderr)
	case "export":
		return exportCmd(rest, stdout, stderr)
	case "doctor":
		return doctorCmd(rest, stdout, stderr)
	case "packages":
		return packagesCmd(rest, stdout, stderr)
	case "version", "--version", "-v":
		fmt.Fprintf(stdout, "gocl %s\ngo %s\nyaegi %s\n", FullVersion(), GoVersion(), YaegiVersion())
		return 0
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		fmt.Fprintf(stderr, "gocl: unknown command %q\n\n%s", cmd, usage)
		return 2
	}
}

// GoVersion is the Go version gocl was built with, which is the language
// version cells are interpreted as ("1.26.8").
func GoVersion() string { return strings.TrimPrefix(runtime.Version(), "go") }

// YaegiVersion is the version of the yaegi module built into gocl.
func YaegiVersion() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, d := range info.Deps {
			if d.Path == "github.com/traefik/yaegi" {
				return strings.TrimPrefix(d.Version, "v")
			}
		}
	}
	return "unknown"
}

// FullVersion is Version plus the commit it was built from, when known.
func FullVersion() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		var rev, dirty string
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				if s.Value == "true" {
					dirty = "+dirty"
				}
			}
		}
		if len(rev) > 12 {
			return Version + " (" + rev[:12] + dirty + ")"
		}
	}
	return Version
}
