package generate

import (
	"bytes"
	"fmt"
	"go/build"
	"os/exec"
	"strings"
	"sync"

	"github.com/traefik/yaegi/extract"

	"github.com/seed43a1e1ab/gocl/kernel/symbols/stdlib/catalog"
)

// StdPackage is the package name of the standard library's tables.
const StdPackage = "stdlib"

// StdFile is one generated table of the standard library.
type StdFile struct {
	Name string // file name in kernel/symbols/stdlib
	Src  []byte
}

// StdList returns the import paths of the standard library of the go command
// on the PATH (`go list std`), which is the Go that builds gocl.
func StdList() ([]string, error) {
	out, err := exec.Command("go", "list", "std").Output()
	if err != nil {
		return nil, fmt.Errorf("go list std: %w (is the go command on the PATH?)", err)
	}
	return strings.Fields(string(out)), nil
}

// StdFileName is the name of the generated table of importPath, for one
// GOOS/GOARCH pair ("linux/amd64") or for all of them (arch "").
func StdFileName(importPath, arch string) string {
	name := strings.ReplaceAll(importPath, "/", "-")
	if arch != "" {
		name += "_" + strings.ReplaceAll(arch, "/", "_")
	}
	return name + ".go"
}

// StdTables extracts the table of every package of std that the catalog
// keeps, with yaegi's extractor, using up to workers goroutines.
func StdTables(std []string, workers int) ([]StdFile, error) {
	specs := catalog.Extracted(std)
	var (
		mu    sync.Mutex
		files []StdFile
		first error
		wg    sync.WaitGroup
		next  = make(chan catalog.Spec)
	)
	add := func(f StdFile, err error) {
		mu.Lock()
		defer mu.Unlock()
		if err != nil && first == nil {
			first = err
		}
		if err == nil {
			files = append(files, f)
		}
	}
	for range max(workers, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for s := range next {
				src, err := stdTable(s)
				add(StdFile{Name: StdFileName(s.Path, ""), Src: src}, err)
			}
		}()
	}
	var perArch []catalog.Spec
	for _, s := range specs {
		if len(s.Arches) > 0 {
			perArch = append(perArch, s)
			continue
		}
		next <- s
	}
	close(next)
	wg.Wait()
	// build.Default says which files the source importer reads; it is
	// changed per platform, so these run one at a time, after the others.
	for _, s := range perArch {
		for _, arch := range s.Arches {
			src, err := stdTableFor(s, arch)
			add(StdFile{Name: StdFileName(s.Path, arch), Src: src}, err)
		}
	}
	return files, first
}

func stdTable(s catalog.Spec) ([]byte, error) {
	var buf bytes.Buffer
	e := extract.Extractor{Dest: StdPackage, Exclude: s.Exclude}
	if _, err := e.Extract(s.Path, s.Path, &buf); err != nil {
		return nil, fmt.Errorf("extract symbols of %s: %w", s.Path, err)
	}
	return buf.Bytes(), nil
}

func stdTableFor(s catalog.Spec, arch string) ([]byte, error) {
	goos, goarch, ok := strings.Cut(arch, "/")
	if !ok {
		return nil, fmt.Errorf("catalog: %s: platform %q is not GOOS/GOARCH", s.Path, arch)
	}
	saved := build.Default
	defer func() { build.Default = saved }()
	build.Default.GOOS, build.Default.GOARCH = goos, goarch
	build.Default.CgoEnabled = false
	return stdTable(s)
}
