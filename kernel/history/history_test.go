package history

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
)

func open(t *testing.T, path string, limit int) *Store {
	t.Helper()
	s, err := OpenLimit(path, limit)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func inputs(es []Entry) []string {
	out := []string{}
	for _, e := range es {
		out = append(out, e.Input)
	}
	return out
}

func TestSessionsSurviveRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "deep", "gocl", "history.jsonl")
	s1 := open(t, path, 0)
	if s1.Session() != 1 {
		t.Fatalf("first session = %d, want 1", s1.Session())
	}
	if fi, err := os.Stat(filepath.Dir(path)); err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("history dir: %v, mode %v; want 0700", err, fi.Mode().Perm())
	}
	for i, in := range []string{"a := 1", "a + 1", "fmt.Println(a)"} {
		if err := s1.Add(i+1, in, ""); err != nil {
			t.Fatal(err)
		}
	}
	s1.Add(4, "a * 10", "10")

	s2 := open(t, path, 0) // a kernel restart
	if s2.Session() != 2 {
		t.Fatalf("second session = %d, want 2", s2.Session())
	}
	s2.Add(1, "b := 2", "")

	s3 := open(t, path, 0) // a session with no cells still takes a number
	_ = s3
	s4 := open(t, path, 0)
	if s4.Session() != 4 {
		t.Errorf("fourth session = %d, want 4", s4.Session())
	}
	got := s4.Range(-3, 1, 0, true)
	want := []Entry{
		{1, 1, "a := 1", ""}, {1, 2, "a + 1", ""}, {1, 3, "fmt.Println(a)", ""}, {1, 4, "a * 10", "10"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Range(-3, 1, 0) = %v, want %v", got, want)
	}
	if got := s4.Range(1, 2, 4, false); !reflect.DeepEqual(inputs(got), []string{"a + 1", "fmt.Println(a)"}) {
		t.Errorf("Range(1, 2, 4) = %v", got)
	}
	if got := s4.Range(1, 4, 5, false); len(got) != 1 || got[0].Output != "" {
		t.Errorf("Range without output kept the output: %v", got)
	}
	if got := s4.Range(0, 1, 0, false); len(got) != 0 {
		t.Errorf("current session has cells already: %v", got)
	}
	if got := s4.Tail(2, false); !reflect.DeepEqual(inputs(got), []string{"a * 10", "b := 2"}) {
		t.Errorf("Tail(2) = %v", got)
	}
	if got := s4.Tail(0, false); len(got) != 0 {
		t.Errorf("Tail(0) = %v", got)
	}
}

func TestSearch(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "h.jsonl"), 0)
	cells := []string{"x := cl.Platforms()", "print(1)", "q := cl.NewQueue(\nctx)", "print(1)", "a/b", "x?y"}
	for i, c := range cells {
		s.Add(i+1, c, "")
	}
	cases := []struct {
		pat    string
		n      int
		unique bool
		want   []string
	}{
		{"*cl.*", 0, false, []string{"x := cl.Platforms()", "q := cl.NewQueue(\nctx)"}},
		{"*cl.*", 1, false, []string{"q := cl.NewQueue(\nctx)"}},
		{"print(?)", 0, false, []string{"print(1)", "print(1)"}},
		{"print(?)", 0, true, []string{"print(1)"}},
		{"a*b", 0, false, []string{"a/b"}},
		{`x\?y`, 0, false, []string{"x?y"}},
		{"cl", 0, false, []string{}},
		{"*", 2, false, []string{"a/b", "x?y"}},
	}
	for _, c := range cases {
		if got := inputs(s.Search(c.pat, c.n, c.unique, false)); !reflect.DeepEqual(got, c.want) {
			t.Errorf("Search(%q, %d, %v) = %q, want %q", c.pat, c.n, c.unique, got, c.want)
		}
	}
}

func TestCorruptLinesSkipped(t *testing.T) {
	path := filepath.Join(t.TempDir(), "h.jsonl")
	content := `{"session":1,"line":0,"start":"x"}
{"session":1,"line":1,"input":"good"}
{"session":1,"line":2,"inp
not json at all
{"session":-4,"line":1,"input":"bad session"}

{"session":1,"line":3,"input":"also good"}
`
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	s := open(t, path, 0)
	if s.Session() != 2 {
		t.Errorf("Session() = %d, want 2", s.Session())
	}
	if s.Skipped() != 3 {
		t.Errorf("Skipped() = %d, want 3", s.Skipped())
	}
	if got := inputs(s.Range(1, 0, 0, false)); !reflect.DeepEqual(got, []string{"good", "also good"}) {
		t.Errorf("session 1 = %q", got)
	}
}

func TestTrim(t *testing.T) {
	path := filepath.Join(t.TempDir(), "h.jsonl")
	s := open(t, path, 20)
	for i := 1; i <= 50; i++ {
		if err := s.Add(i, strings.Repeat("x", i), ""); err != nil {
			t.Fatal(err)
		}
	}
	data, _ := os.ReadFile(path)
	if n := strings.Count(string(data), "\n"); n > 20+2+2 {
		t.Errorf("file has %d lines after 50 adds with limit 20", n)
	}
	s2 := open(t, path, 20)
	if s2.Session() != 2 {
		t.Errorf("session after trim = %d, want 2", s2.Session())
	}
	got := s2.Tail(100, false)
	if len(got) > 22 || len(got) < 20 || got[len(got)-1].Line != 50 {
		t.Errorf("after trim: %d cells, last %v", len(got), got[len(got)-1])
	}
}

func TestConcurrentAndTwoKernels(t *testing.T) {
	path := filepath.Join(t.TempDir(), "h.jsonl")
	a := open(t, path, 0)
	b := open(t, path, 0)
	if a.Session() == b.Session() {
		t.Fatalf("two kernels share session %d", a.Session())
	}
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			st := a
			if w%2 == 1 {
				st = b
			}
			for i := 0; i < 25; i++ {
				if err := st.Add(w*100+i+1, "cell", ""); err != nil {
					t.Error(err)
				}
				st.Tail(3, true)
			}
		}(w)
	}
	wg.Wait()
	c := open(t, path, 0)
	if n := len(c.Tail(1000, false)); n != 100 {
		t.Errorf("reopened store has %d cells, want 100", n)
	}
}

func TestAddRejectsBadLine(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "h.jsonl"), 0)
	if err := s.Add(0, "x", ""); err == nil {
		t.Error("Add(0, ...) succeeded")
	}
}

func TestTuple(t *testing.T) {
	e := Entry{Session: 3, Line: 2, Input: "in", Output: "out"}
	if got := e.Tuple(false); !reflect.DeepEqual(got, []any{3, 2, "in"}) {
		t.Errorf("Tuple(false) = %v", got)
	}
	if got := e.Tuple(true); !reflect.DeepEqual(got, []any{3, 2, []any{"in", "out"}}) {
		t.Errorf("Tuple(true) = %v", got)
	}
	e.Output = ""
	if got := e.Tuple(true); !reflect.DeepEqual(got, []any{3, 2, []any{"in", nil}}) {
		t.Errorf("Tuple(true) without output = %v", got)
	}
}

func TestDefaultPath(t *testing.T) {
	t.Setenv("JUPYTER_DATA_DIR", "/tmp/jd")
	if p, _ := DefaultPath(); p != "/tmp/jd/gocl/history.jsonl" {
		t.Errorf("DefaultPath() = %q", p)
	}
	t.Setenv("JUPYTER_DATA_DIR", "")
	t.Setenv("XDG_DATA_HOME", "/tmp/xdg")
	if p, _ := DefaultPath(); p != "/tmp/xdg/jupyter/gocl/history.jsonl" {
		t.Errorf("DefaultPath() with XDG = %q", p)
	}
	t.Setenv("XDG_DATA_HOME", "")
	t.Setenv("HOME", "/home/u")
	if p, _ := DefaultPath(); p != "/home/u/.local/share/jupyter/gocl/history.jsonl" {
		t.Errorf("DefaultPath() from HOME = %q", p)
	}
}

func TestNewSessionInProcess(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history.jsonl")
	s1 := open(t, path, 0)
	s1.Add(1, "a := 1", "")
	other := open(t, path, 0) // another kernel, session 2
	other.Add(1, "from the other kernel", "")
	if err := s1.NewSession(); err != nil {
		t.Fatal(err)
	}
	if s1.Session() != 3 {
		t.Fatalf("session after NewSession = %d, want 3", s1.Session())
	}
	s1.Add(1, "b := 2", "") // line 1 again, in the new session
	if got := s1.Range(-2, 1, 0, false); !reflect.DeepEqual(inputs(got), []string{"a := 1"}) {
		t.Errorf("old session = %v", got)
	}
	if got := s1.Range(0, 1, 0, false); !reflect.DeepEqual(inputs(got), []string{"b := 2"}) {
		t.Errorf("new session = %v", got)
	}
	if got := s1.Tail(3, false); !reflect.DeepEqual(inputs(got), []string{"a := 1", "from the other kernel", "b := 2"}) {
		t.Errorf("Tail(3) = %v", got)
	}
	if s4 := open(t, path, 0); s4.Session() != 4 {
		t.Errorf("a later kernel's session = %d, want 4", s4.Session())
	}
}

// TestCaps: a cell's input and output are cut to MaxInput and MaxOutput
// with a note, and the file keeps at most maxBytes of text, newest first.
func TestCaps(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history.jsonl")
	s := open(t, path, 0)
	bigIn := strings.Repeat("x+", 3<<20/2)
	bigOut := strings.Repeat("é", 5<<20/2)
	if err := s.Add(1, bigIn, bigOut); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(path); fi.Size() > MaxInput+MaxOutput+4096 {
		t.Errorf("history file is %d bytes after one 8 MB cell; want under %d", fi.Size(), MaxInput+MaxOutput+4096)
	}
	e := s.Tail(1, true)[0]
	if len(e.Input) > MaxInput+200 || !strings.HasPrefix(e.Input, bigIn[:1000]) || !strings.Contains(e.Input, "truncated, the first") {
		t.Errorf("input kept %d bytes, ending %q", len(e.Input), e.Input[len(e.Input)-80:])
	}
	if len(e.Output) > MaxOutput+200 || !utf8.ValidString(e.Output) || !strings.Contains(e.Output, "of 5242880 bytes kept") {
		t.Errorf("output kept %d bytes, ending %q", len(e.Output), e.Output[len(e.Output)-80:])
	}

	mb := 2 * (MaxInput + MaxOutput)
	s.maxBytes = mb
	for i := 2; i <= 10; i++ {
		s.Add(i, fmt.Sprint(i)+bigIn, bigOut)
	}
	if fi, _ := os.Stat(path); fi.Size() > int64(mb+mb/10+4096) {
		t.Errorf("history file is %d bytes, over its cap %d", fi.Size(), mb)
	}
	if got := s.Tail(100, false); len(got) < 1 || !strings.HasPrefix(got[len(got)-1].Input, "10") {
		t.Errorf("the newest cell was not kept: %d cells", len(got))
	}
}

// TestOldHugeFileShrinks: a file written before the caps, with a 20 MB
// result in it, is cut down when a kernel opens it, so later kernels start
// small.
func TestOldHugeFileShrinks(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history.jsonl")
	huge, _ := json.Marshal(record{Entry: Entry{Session: 1, Line: 1, Input: "big()", Output: strings.Repeat("y", 20<<20)}})
	small, _ := json.Marshal(record{Entry: Entry{Session: 1, Line: 2, Input: "1 + 1", Output: "2"}})
	os.WriteFile(path, append(append(append(huge, '\n'), small...), '\n'), 0o600)
	s := open(t, path, 0)
	if fi, _ := os.Stat(path); fi.Size() > MaxOutput+4096 {
		t.Errorf("the old file was not cut down: %d bytes", fi.Size())
	}
	if got := s.Range(1, 1, 0, true); len(got) != 2 || got[1].Output != "2" || !strings.Contains(got[0].Output, "truncated") {
		t.Errorf("cells after the cut: %d", len(got))
	}
}
