package docgen

import (
	"errors"
	"go/build"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Module is the import path of this module.
const Module = "github.com/seed43a1e1ab/gocl"

// ModuleDirs are the directories, relative to the module root, of this
// module's packages whose docs are embedded.
var ModuleDirs = []string{"kernel/display", "clapi", "kernel/widgets"}

// BuildModule builds the docs of ModuleDirs below root. A directory that does
// not exist yet or holds no Go files is skipped and listed in skipped.
func BuildModule(root string) (pkgs []*Package, skipped []string, err error) {
	ctx := build.Default
	for _, d := range ModuleDirs {
		dir := filepath.Join(root, filepath.FromSlash(d))
		if _, err := os.Stat(dir); err != nil {
			skipped = append(skipped, d)
			continue
		}
		p, err := FromDir(&ctx, dir, Module+"/"+d)
		if err != nil {
			var nogo *build.NoGoError
			if errors.As(err, &nogo) {
				skipped = append(skipped, d)
				continue
			}
			return nil, nil, err
		}
		pkgs = append(pkgs, p)
	}
	return pkgs, skipped, nil
}

// StdPaths returns the import paths of the packages in a yaegi symbol table
// (keys like "fmt/fmt" or "math/rand/v2/rand"), sorted, plus "builtin".
// Entries that are not standard-library packages are left out.
func StdPaths(symbols map[string]map[string]any) []string {
	seen := map[string]bool{"builtin": true}
	for k := range symbols {
		i := strings.LastIndexByte(k, '/')
		if i <= 0 {
			continue
		}
		p := k[:i]
		first := strings.SplitN(p, "/", 2)[0]
		if strings.Contains(first, ".") { // not standard library
			continue
		}
		seen[p] = true
	}
	out := make([]string, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}
