// Command gen writes the yaegi symbol table of each import path given as an
// argument into the current directory (package symbols). It is run by
// go generate ./kernel/symbols.
package main

import (
	"fmt"
	"os"

	"github.com/seed43a1e1ab/gocl/kernel/symbols/internal/generate"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: go run ./gen IMPORTPATH...  (run in kernel/symbols)")
		os.Exit(2)
	}
	for _, p := range os.Args[1:] {
		src, err := generate.Table(p)
		if err != nil {
			fmt.Fprintln(os.Stderr, "gen:", err)
			os.Exit(1)
		}
		name := generate.FileName(p)
		if err := os.WriteFile(name, src, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "gen:", err)
			os.Exit(1)
		}
	}
}
