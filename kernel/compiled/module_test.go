package compiled

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPinsRoundTrip(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("GOCL_MODDIR", dir)
	goclSum := filepath.Join(dir, "gocl-go.sum")
	session := filepath.Join(dir, "session.sum")
	os.WriteFile(goclSum, []byte("a.org/x v1.0.0 h1:AAA=\n"), 0o644)
	os.WriteFile(session, []byte("a.org/x v1.0.0 h1:AAA=\nb.org/y v0.2.0 h1:BBB=\nb.org/y v0.2.0/go.mod h1:CCC=\n"), 0o644)
	if err := writePins(map[string]string{"b.org/y": "v0.2.0", "c.org/z": "v1.2.3"}, goclSum, session); err != nil {
		t.Fatal(err)
	}
	pins, err := readPins(pinPath(PinFile))
	if err != nil {
		t.Fatal(err)
	}
	if len(pins) != 2 || pins["b.org/y"] != "v0.2.0" || pins["c.org/z"] != "v1.2.3" {
		t.Errorf("pins read back = %v", pins)
	}
	sum, _ := os.ReadFile(pinPath(PinSumFile))
	if s := string(sum); strings.Contains(s, "a.org/x") || !strings.Contains(s, "b.org/y v0.2.0/go.mod h1:CCC=") {
		t.Errorf("gocl.sum should hold the session's hashes that gocl's go.sum lacks, got:\n%s", s)
	}
}

func TestThirdParty(t *testing.T) {
	for p, want := range map[string]bool{
		"fmt": false, "net/http": false, ModulePath + "/clapi": false,
		"gonum.org/v1/gonum/stat": true, "github.com/google/go-cmp/cmp": true,
	} {
		if got := thirdParty(p); got != want {
			t.Errorf("thirdParty(%q) = %v, want %v", p, got, want)
		}
	}
}

// TestCellGcflags: the cells' packages keep the binary's flags that apply
// to every package, and their files are recorded without the build
// directory (quoted when it has a space).
func TestCellGcflags(t *testing.T) {
	for _, c := range []struct {
		bin  []string
		dir  string
		want string
	}{
		{nil, "/c/gocl-cells-1", "-gcflags=goclsession/c...=-trimpath=/c/gocl-cells-1=>goclsession"},
		{[]string{"-trimpath", "-gcflags=all=-N -l"}, "/c/d", "-gcflags=goclsession/c...=-N -l -trimpath=/c/d=>goclsession"},
		{[]string{"-gcflags=-N -l"}, "/c/d", "-gcflags=goclsession/c...=-trimpath=/c/d=>goclsession"},
		{[]string{"-gcflags=example.com/...=-N"}, "/c/d", "-gcflags=goclsession/c...=-trimpath=/c/d=>goclsession"},
		{nil, "/my cache/d", `-gcflags=goclsession/c...="-trimpath=/my cache/d=>goclsession"`},
	} {
		if got := cellGcflags(c.bin, c.dir); got != c.want {
			t.Errorf("cellGcflags(%q, %q) = %s, want %s", c.bin, c.dir, got, c.want)
		}
	}
}

// TestSrcReplaces: gocl's replace directives, relative paths made absolute.
func TestSrcReplaces(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module m\n\nreplace a.b/c => ./third_party/c // the fork\n\n"+
		"replace (\n\tx.y/z v1.0.0 => x.y/w v1.1.0\n\tp.q/r => ../r\n)\n"), 0o600)
	got := strings.Join(srcReplaces(dir), "\n")
	want := "a.b/c => " + filepath.Join(dir, "third_party/c") + "\nx.y/z v1.0.0 => x.y/w v1.1.0\np.q/r => " + filepath.Join(dir, "../r")
	if got != want {
		t.Errorf("srcReplaces:\n%s\nwant\n%s", got, want)
	}
}
