package engine

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
)

var updateReadme = flag.Bool("update-readme", false, "rewrite the README's table of passes from the table in passes.go")

const (
	readmePath  = "../../README.md"
	passesBegin = "<!-- passes: generated from kernel/engine/passes.go by TestReadmePasses; do not edit -->\n"
	passesEnd   = "<!-- passes: end -->\n"
)

// passesMarkdown is the README's table of the passes: one line a pass, in
// the table's order, naming the yaegi bug it covers.
func passesMarkdown(table []*pass) string {
	var b strings.Builder
	b.WriteString("| # | pass | runs when | reads | what yaegi (v0.16.1) gets wrong | changes | file |\n|---|---|---|---|---|---|---|\n")
	for i, p := range table {
		when := "always"
		if p.early {
			when = "first, before the cell is analysed"
		} else if p.needed != nil {
			when = "the cell needs it"
		} else if p.chunk != nil {
			when = "each chunk"
		}
		if !p.userOnly {
			when += ", engine's cells too"
		}
		fmt.Fprintf(&b, "| %d | `%s` | %s | %s | %s | %s | [%s](kernel/engine/%s) |\n",
			i+1, p.name, when, p.reads, mdCell(p.bug), mdCell(p.changes), p.file, p.file)
	}
	return b.String()
}

func mdCell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

// TestReadmePasses checks that the README's table of passes is the one
// passes.go makes; -update-readme rewrites it.
func TestReadmePasses(t *testing.T) {
	data, err := os.ReadFile(readmePath)
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	i, j := strings.Index(readme, passesBegin), strings.Index(readme, passesEnd)
	if i < 0 || j < i {
		t.Fatalf("README.md has no table of passes between %q and %q", passesBegin, passesEnd)
	}
	want := passesMarkdown(passes)
	if got := readme[i+len(passesBegin) : j]; got != want {
		if *updateReadme {
			if err := os.WriteFile(readmePath, []byte(readme[:i+len(passesBegin)]+want+readme[j:]), 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		t.Errorf("README.md's table of passes is not passes.go's; run go test ./kernel/engine/ -run TestReadmePasses -update-readme\ngot:\n%s\nwant:\n%s", got, want)
	}
}
