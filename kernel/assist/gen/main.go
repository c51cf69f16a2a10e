// Command gen regenerates the embedded documentation of kernel/assist:
// docdata/std.json.gz from the standard library in $(go env GOROOT)/src for
// every package yaegi can import, and docdata/mod.json.gz from this module's
// own packages (kernel/display, clapi).
//
// Run it with "go generate ./kernel/assist" from the module root.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/build"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/seed43a1e1ab/gocl/kernel/assist/internal/docgen"
	"github.com/seed43a1e1ab/gocl/kernel/symbols/stdlib"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("gen: ")
	out := flag.String("o", "docdata", "output directory")
	modOnly := flag.Bool("mod", false, "regenerate only this module's docs (mod.json.gz)")
	flag.Parse()

	root, err := moduleRoot()
	if err != nil {
		log.Fatal(err)
	}
	ctx := build.Default
	if goroot, err := exec.Command("go", "env", "GOROOT").Output(); err == nil {
		ctx.GOROOT = strings.TrimSpace(string(goroot))
	}

	mod, skipped, err := docgen.BuildModule(root)
	if err != nil {
		log.Fatal(err)
	}
	for _, s := range skipped {
		log.Printf("skipped %s: no Go package there yet; run go generate again once it exists", s)
	}
	if err := save(filepath.Join(*out, "mod.json.gz"), mod); err != nil {
		log.Fatal(err)
	}
	if *modOnly {
		return
	}

	syms := map[string]map[string]any{}
	for k := range stdlib.Symbols {
		syms[k] = nil
	}
	var std []*docgen.Package
	for _, path := range docgen.StdPaths(syms) {
		p, err := docgen.FromGOROOT(&ctx, path)
		if err != nil {
			log.Printf("skipped %s: %v", path, err)
			continue
		}
		std = append(std, p)
	}
	if err := save(filepath.Join(*out, "std.json.gz"), std); err != nil {
		log.Fatal(err)
	}
	log.Printf("%d standard-library packages, %d module packages", len(std), len(mod))
}

func save(name string, pkgs []*docgen.Package) error {
	var b bytes.Buffer
	if err := docgen.Write(&b, pkgs); err != nil {
		return err
	}
	if err := os.WriteFile(name, b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	return nil
}

// moduleRoot finds the directory holding go.mod, from the working directory
// up.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod above the working directory; run from inside the gocl module")
		}
		dir = parent
	}
}
