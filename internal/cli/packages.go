package cli

import (
	"fmt"
	"io"
	"path"
	"reflect"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/seed43a1e1ab/gocl/kernel/symbols"
	"github.com/seed43a1e1ab/gocl/kernel/symbols/stdlib"
	"github.com/seed43a1e1ab/gocl/kernel/symbols/stdlib/catalog"
)

// packagesCmd prints what cells can import, and what they cannot and why.
func packagesCmd(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintf(stderr, "gocl packages takes no arguments\n\n%s", usage)
		return 2
	}
	writePackages(stdout, importable(stdlib.Symbols, symbols.Symbols))
	return 0
}

// importable returns the sorted import paths that the symbol tables provide,
// plus the generic packages' interpreted sources.
func importable(tables ...map[string]map[string]reflect.Value) []string {
	set := map[string]bool{}
	for _, t := range tables {
		for key := range t {
			p := path.Dir(key)
			if p == "." || strings.HasPrefix(p, "github.com/traefik/yaegi") {
				continue // yaegi's own hooks
			}
			set[p] = true
		}
	}
	for _, p := range catalog.Generic {
		set[p] = true
	}
	var out []string
	for p := range set {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// writePackages writes the listing of `gocl packages`.
func writePackages(w io.Writer, paths []string) {
	fmt.Fprintf(w, "Cells can import these %d packages (the standard library of Go %s, through yaegi %s):\n\n",
		len(paths), GoVersion(), YaegiVersion())
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	for _, p := range paths {
		var notes []string
		if slices.Contains(catalog.Generic, p) {
			notes = append(notes, "interpreted Go source (generic)")
		}
		if n, ok := catalog.Notes[p]; ok {
			notes = append(notes, n)
		}
		if len(notes) == 0 {
			fmt.Fprintf(tw, "  %s\n", p)
			continue
		}
		fmt.Fprintf(tw, "  %s\t%s\n", p, strings.Join(notes, "; "))
	}
	tw.Flush()
	fmt.Fprint(w, "\nGeneric functions and types of the other packages (atomic.Pointer[T], sync.OnceValue, rand.N...)\n"+
		"are compiled code, which the interpreter cannot instantiate: the import works, those names do not.\n")
	fmt.Fprint(w, "\nLimits of generic calls (yaegi's generics), with what to do instead:\n\n")
	for _, l := range catalog.GenericLimits {
		fmt.Fprintf(w, "  - %s\n", l)
	}
	fmt.Fprintf(w, "\nRefused: %s.\n", catalog.GenericNameClash)
	fmt.Fprint(w, "\nCells cannot import:\n\n")
	var refused []string
	for p := range catalog.Refused {
		refused = append(refused, p)
	}
	sort.Strings(refused)
	for _, p := range refused {
		fmt.Fprintf(w, "  %s: %s\n", p, catalog.Refused[p])
	}
	fmt.Fprint(w, "\nnor any package outside this list: to use one, build it into gocl (kernel/symbols).\n")
}
