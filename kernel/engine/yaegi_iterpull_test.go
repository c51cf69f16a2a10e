package engine

import (
	"strings"
	"testing"
)

// TestIterPullRefused checks that a cell calling iter.Pull is refused before
// it prints anything, and that iter's other names still work.
func TestIterPullRefused(t *testing.T) {
	e := newEngine(t)
	res, r := run(t, e, "import \"iter\"\nfmt.Println(\"before\")\nnext, stop := iter.Pull(func(yield func(int) bool) { yield(1) })\ndefer stop()\nfmt.Println(next())")
	if res.Err == nil || !strings.Contains(res.Err.Value, "iter.Pull is not supported in a cell") {
		t.Errorf("iter.Pull: %+v", res.Err)
	}
	if out := r.text("stdout"); out != "" {
		t.Errorf("the refused cell printed %q", out)
	}
	_, r = ok(t, e, "var seq iter.Seq[int] = func(yield func(int) bool) { yield(7) }\nseq(func(v int) bool { fmt.Println(v); return true })")
	expect(t, "iter.Seq", r.text("stdout"), "7\n")
}
