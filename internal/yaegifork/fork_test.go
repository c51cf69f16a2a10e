package yaegifork

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const (
	module  = "github.com/traefik/yaegi"
	version = "v0.16.1"
	marker  = "gocl patch"
	fork    = "../../third_party/yaegi"
)

// pristine returns the directory of the unpatched module, downloading it
// into the module cache when needed.
func pristine(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "mod", "download", "-json", module+"@"+version).Output()
	if err != nil {
		t.Skipf("go mod download %s@%s: %v (no module proxy?)", module, version, err)
	}
	var m struct{ Dir string }
	if err := json.Unmarshal(out, &m); err != nil || m.Dir == "" {
		t.Fatalf("go mod download -json said %s", out)
	}
	return m.Dir
}

// TestForkChangesAreMarked fails when the fork differs from the pristine
// module by a line without the marker, or by a changed file that PATCHES.md
// does not name.
func TestForkChangesAreMarked(t *testing.T) {
	orig := pristine(t)
	notes, err := os.ReadFile(filepath.Join(fork, "PATCHES.md"))
	if err != nil {
		t.Fatalf("the fork has no PATCHES.md: %v", err)
	}
	seen := map[string]bool{}
	err = filepath.WalkDir(fork, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(fork, path)
		rel = filepath.ToSlash(rel)
		if strings.HasPrefix(rel, "_test/tmp/") {
			return nil // what yaegi's own tests build (its .gitignore)
		}
		seen[rel] = true
		if rel == "PATCHES.md" {
			return nil
		}
		mine, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		theirs, err := os.ReadFile(filepath.Join(orig, filepath.FromSlash(rel)))
		if os.IsNotExist(err) {
			if !bytes.HasPrefix(mine, []byte("// "+marker+":")) {
				t.Errorf("%s is not in yaegi %s and does not start with \"// %s:\"", rel, version, marker)
			}
		} else if err != nil {
			return err
		} else if bytes.Equal(mine, theirs) {
			return nil
		} else if msg := unmarked(lines(theirs), lines(mine)); msg != "" {
			t.Errorf("%s: %s", rel, msg)
		}
		if !bytes.Contains(notes, []byte(rel)) {
			t.Errorf("%s differs from yaegi %s but PATCHES.md does not name it", rel, version)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	filepath.WalkDir(orig, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(orig, path)
			if rel = filepath.ToSlash(rel); !seen[rel] {
				t.Errorf("%s of yaegi %s is missing from the fork", rel, version)
			}
		}
		return nil
	})
}

func lines(b []byte) []string { return strings.Split(string(b), "\n") }

// unmarked walks the two versions of a file side by side. A line of the fork
// that is not the pristine one must carry the marker; pristine lines may be
// dropped only next to marked lines (a replaced line). It returns what is
// wrong, or "".
func unmarked(orig, mine []string) string {
	i, j := 0, 0
	hunk := false // marked lines came since the last common line
	for j < len(mine) {
		switch {
		case i < len(orig) && mine[j] == orig[i]:
			i, j, hunk = i+1, j+1, false
		case strings.Contains(mine[j], marker):
			j, hunk = j+1, true
		case hunk:
			// Pristine lines replaced by the marked ones: skip to the
			// fork's next line.
			k := i
			for k < len(orig) && k < i+20 && orig[k] != mine[j] {
				k++
			}
			if k == len(orig) || orig[k] != mine[j] {
				return "unmarked change at line " + itoa(j+1) + ": " + strings.TrimSpace(mine[j])
			}
			i = k
		default:
			return "unmarked change at line " + itoa(j+1) + ": " + strings.TrimSpace(mine[j])
		}
	}
	if i < len(orig) && !hunk {
		return "lines removed at the end, without a marked line"
	}
	return ""
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

func TestUnmarked(t *testing.T) {
	orig := []string{"a", "b", "c", "d"}
	for _, c := range []struct {
		mine []string
		ok   bool
	}{
		{[]string{"a", "b", "c", "d"}, true},
		{[]string{"a", "x // gocl patch", "b", "c", "d"}, true},
		{[]string{"a", "x // gocl patch: why", "c", "d"}, true}, // b replaced
		{[]string{"a", "x", "b", "c", "d"}, false},
		{[]string{"a", "c", "d"}, false}, // b removed without a mark
		{[]string{"a", "b", "c", "d", "e"}, false},
	} {
		if got := unmarked(orig, c.mine) == ""; got != c.ok {
			t.Errorf("unmarked(%q, %q) ok = %v, want %v", orig, c.mine, got, c.ok)
		}
	}
}
