// Command gocl is a Jupyter kernel for Go with an OpenCL lab built in.
//
//	gocl kernel --connection-file F   what Jupyter runs
//	gocl install [--user | --sys-prefix | --prefix DIR]
//	gocl run NOTEBOOK.ipynb [-o OUT.ipynb | --inplace] [--allow-errors] [--timeout D] [--kernel-env K=V ...]
//	gocl doctor [--fix]                diagnose the OpenCL set-up
//	gocl version
package main

import (
	"os"

	"github.com/seed43a1e1ab/gocl/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr))
}
