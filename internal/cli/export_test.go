package cli

import (
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// writeNotebook writes a gocl notebook of code cells to dir/name.
func writeNotebook(t *testing.T, dir, name string, cells ...string) string {
	t.Helper()
	var cs []map[string]any
	for _, c := range cells {
		cs = append(cs, map[string]any{"cell_type": "code", "metadata": map[string]any{}, "outputs": []any{}, "source": c})
	}
	raw, _ := json.Marshal(map[string]any{"cells": cs, "nbformat": 4, "nbformat_minor": 5,
		"metadata": map[string]any{"kernelspec": map[string]any{"name": "gocl", "language": "go"}}})
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func needGo(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
}

// TestExportPlacesCellsAsGoNeeds checks the program's shape: a cell
// variable used by a func is a package variable, a shown value goes to _,
// a display call is a comment, and the imports are the ones used.
func TestExportPlacesCellsAsGoNeeds(t *testing.T) {
	needGo(t)
	dir := t.TempDir()
	nb := writeNotebook(t, dir, "shape.ipynb",
		"n := 3\nxs := make([]float64, n)",
		"func total() float64 { return float64(len(xs)) * 2 }\nfmt.Println(total())\nn",
		"display.Markdown(\"**done**\")")
	src, err := Export(nb, "", io.Discard)
	if err != nil {
		t.Fatalf("export: %v\n%s", err, src)
	}
	got := string(src)
	for _, want := range []string{
		"\tn  int       // cell 1\n", "\txs []float64 // cell 1\n", // package variables, typed
		"\tn = 3\n", "\txs = make([]float64, n)\n", // assigned where the cell declared them
		"func total() float64 {",                 // at package level
		"_ = n // the notebook shows this value", // a value the cell ends with
		"// display.Markdown(\"**done**\")",      // shown only in a notebook
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the program lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "gocl/kernel/display\"") {
		t.Errorf("display is imported though only a comment uses it:\n%s", got)
	}
}

// TestExportRefusesWhatGoCannotSay checks that a notebook a Go program
// cannot express is an error that names the cell, not a wrong program.
func TestExportRefusesWhatGoCannotSay(t *testing.T) {
	needGo(t)
	dir := t.TempDir()
	nb := writeNotebook(t, dir, "redeclare.ipynb", "x := 1", "x := \"one\"\nfmt.Println(x)")
	_, err := Export(nb, "", io.Discard)
	if err == nil || !strings.Contains(err.Error(), "cell 2 declares x again, as string (cell 1 made it int)") {
		t.Fatalf("err = %v, want the redeclaration named", err)
	}
}

// TestExportLeavesADeclaredNameToTheCells checks that a cell variable named
// like a package cells use without an import (cell, for compiled cells)
// is not imported as that package.
func TestExportLeavesADeclaredNameToTheCells(t *testing.T) {
	needGo(t)
	dir := t.TempDir()
	nb := writeNotebook(t, dir, "names.ipynb", "cell := 2\nfmt.Println(cell * 2)")
	src, err := Export(nb, "", io.Discard)
	if err != nil {
		t.Fatalf("export: %v\n%s", err, src)
	}
	if strings.Contains(string(src), "gocl/cell\"") {
		t.Errorf("the program imports package cell:\n%s", src)
	}
}
