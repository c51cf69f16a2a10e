package cli

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/seed43a1e1ab/gocl/internal/kernelspec"
)

func installCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("gocl install", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var w kernelspec.Where
	fs.BoolVar(&w.User, "user", false, "install for this user ($JUPYTER_DATA_DIR or ~/.local/share/jupyter)")
	fs.BoolVar(&w.SysPrefix, "sys-prefix", false, "install into the prefix of the Python that runs Jupyter")
	fs.StringVar(&w.Prefix, "prefix", "", "install into `DIR`/share/jupyter/kernels")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	n := 0
	for _, set := range []bool{w.User, w.SysPrefix, w.Prefix != ""} {
		if set {
			n++
		}
	}
	if n > 1 {
		fmt.Fprintln(stderr, "gocl install: choose one of --user, --sys-prefix and --prefix")
		return 2
	}
	bin, err := os.Executable()
	if err == nil {
		bin, err = filepath.EvalSymlinks(bin)
	}
	if err != nil {
		fmt.Fprintf(stderr, "gocl install: cannot find this binary's path: %v\n", err)
		return 1
	}
	dir, err := kernelspec.KernelsDir(w)
	if err != nil {
		fmt.Fprintf(stderr, "gocl install: %v\n", err)
		return 1
	}
	dest, err := kernelspec.Install(dir, bin)
	if err != nil {
		fmt.Fprintf(stderr, "gocl install: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "Installed kernelspec %q (Go (gocl)) in %s, running %s\n", kernelspec.Name, dest, bin)
	return 0
}
