// Command gen writes the yaegi symbol tables of the standard library of the
// Go on the PATH into the current directory (package stdlib), and removes
// the tables of packages that are gone. It is run by
// go generate ./kernel/symbols/stdlib.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/seed43a1e1ab/gocl/kernel/symbols/internal/generate"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run() error {
	if src, err := os.ReadFile("stdlib.go"); err != nil || !strings.Contains(string(src), "\npackage stdlib\n") {
		return fmt.Errorf("run me in kernel/symbols/stdlib (go generate ./kernel/symbols/stdlib): I write and remove tables in the current directory")
	}
	std, err := generate.StdList()
	if err != nil {
		return err
	}
	files, err := generate.StdTables(std, runtime.NumCPU())
	if err != nil {
		return err
	}
	keep := map[string]bool{}
	for _, f := range files {
		keep[f.Name] = true
		if err := os.WriteFile(f.Name, f.Src, 0o644); err != nil {
			return err
		}
	}
	old, err := filepath.Glob("*.go")
	if err != nil {
		return err
	}
	for _, name := range old {
		src, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		if _, gen := generate.ImportPathOf(src); gen && !keep[name] {
			if err := os.Remove(name); err != nil {
				return err
			}
		}
	}
	fmt.Printf("gen: %d tables\n", len(files))
	return nil
}
