package stdexamples

import (
	"bytes"
	"fmt"
	"go/build"
	"go/doc"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Example is one Example function of the standard library made into a
// program of its own.
type Example struct {
	// Name is the package's import path and the function's name,
	// "strings.ExampleFields" or "encoding/json.ExampleMarshal".
	Name string
	// Source is the whole program: package main, the imports it uses,
	// the declarations of its file it refers to, and the example's body as
	// func main (go/doc's playground form).
	Source string
	// Output is the text of the example's "// Output:" comment, as go test
	// reads it (go/doc's Example.Output).
	Output string
}

// Skip is an Example function that is left out, and why.
type Skip struct {
	Name, Reason string
}

// Extract reads the example files (*_test.go) of the packages pkgs under
// goroot/src and returns, sorted by name, every example that go test checks
// against an ordered "// Output:" comment and that go/doc can make a whole
// program of. The rest are returned as skips with a reason: no output
// comment (go test only compiles it), unordered output (a notebook prints
// one order; the comment allows any), and examples that refer to names of
// other files or of the package itself (an internal test, package strings
// rather than strings_test), which go/doc cannot make a program of.
func Extract(goroot string, pkgs []string) ([]Example, []Skip, error) {
	var exs []Example
	var skips []Skip
	for _, pkg := range pkgs {
		dir := filepath.Join(goroot, "src", filepath.FromSlash(pkg))
		entries, err := os.ReadDir(dir)
		if err != nil {
			return nil, nil, fmt.Errorf("read the examples of %s: %w (is %s a Go installation?)", pkg, err, goroot)
		}
		for _, e := range entries {
			name := e.Name()
			if e.IsDir() || !strings.HasSuffix(name, "_test.go") {
				continue
			}
			if ok, err := build.Default.MatchFile(dir, name); err != nil || !ok {
				continue // another system's file, or not for this build
			}
			got, skipped, err := fileExamples(pkg, filepath.Join(dir, name))
			if err != nil {
				return nil, nil, err
			}
			exs, skips = append(exs, got...), append(skips, skipped...)
		}
	}
	sort.Slice(exs, func(i, j int) bool { return exs[i].Name < exs[j].Name })
	sort.Slice(skips, func(i, j int) bool { return skips[i].Name < skips[j].Name })
	return exs, skips, nil
}

// fileExamples makes programs of the examples of one test file.
func fileExamples(pkg, path string) ([]Example, []Skip, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
	if err != nil {
		return nil, nil, fmt.Errorf("parse %s: %w", path, err)
	}
	var exs []Example
	var skips []Skip
	for _, ex := range doc.Examples(f) {
		name := pkg + ".Example"
		if ex.Name != "" {
			name += ex.Name
		}
		switch {
		case ex.Output == "" && !ex.EmptyOutput:
			skips = append(skips, Skip{name, "no // Output: comment (go test only compiles it)"})
			continue
		case ex.Unordered:
			skips = append(skips, Skip{name, "unordered output (any order passes; a run prints one)"})
			continue
		case ex.Play == nil:
			reason := "refers to names outside its file (go/doc makes no program of it)"
			if !strings.HasSuffix(f.Name.Name, "_test") {
				reason = "an internal test (package " + f.Name.Name + "): uses the package's own names"
			}
			skips = append(skips, Skip{name, reason})
			continue
		}
		var b bytes.Buffer
		if err := format.Node(&b, fset, ex.Play); err != nil {
			return nil, nil, fmt.Errorf("print the program of %s: %w", name, err)
		}
		src := b.String()
		if _, err := parser.ParseFile(token.NewFileSet(), "main.go", src, 0); err != nil {
			return nil, nil, fmt.Errorf("the program made of %s does not parse: %w", name, err)
		}
		exs = append(exs, Example{Name: name, Source: src, Output: ex.Output})
	}
	return exs, skips, nil
}
