package cellvalue_test

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/seed43a1e1ab/gocl/kernel/cellvalue"
)

// randomFormat makes a directive string from fmt's grammar: flags, widths
// (literal or *), precisions, argument indexes, verbs, good and bad.
func randomFormat(r *rand.Rand, nargs int) string {
	var b strings.Builder
	for n := r.Intn(3) + 1; n > 0; n-- {
		if r.Intn(4) == 0 {
			b.WriteString("|")
		}
		b.WriteByte('%')
		for f := r.Intn(3); f > 0; f-- {
			b.WriteByte("#0+- "[r.Intn(5)])
		}
		if r.Intn(5) == 0 {
			fmt.Fprintf(&b, "[%d]", r.Intn(nargs+1)+1)
		}
		switch r.Intn(4) {
		case 0:
			fmt.Fprintf(&b, "%d", r.Intn(12))
		case 1:
			b.WriteByte('*')
		}
		switch r.Intn(4) {
		case 0:
			fmt.Fprintf(&b, ".%d", r.Intn(5))
		case 1:
			b.WriteString(".*")
		case 2:
			b.WriteString(".")
		}
		if r.Intn(6) == 0 {
			fmt.Fprintf(&b, "[%d]", r.Intn(nargs+1)+1)
		}
		b.WriteByte("vvvvsqxXdobeEfgGtcUTwzp%[.*1"[r.Intn(28)])
	}
	return b.String()
}

func TestRandomFormatsAgreeWithFmt(t *testing.T) {
	r := rand.New(rand.NewSource(8))
	vals := values()
	ints := []c{mk("int", 3), mk("Level", Level(-4)), mk("Level 2", Level(2))}
	failures := 0
	for i := 0; i < 20000 && failures < 20; i++ {
		var real, boxed []any
		var hasPtr bool
		for n := r.Intn(3) + 1; n > 0; n-- {
			x := vals[r.Intn(len(vals))]
			if r.Intn(3) == 0 {
				x = ints[r.Intn(len(ints))]
			}
			hasPtr = hasPtr || x.pointers
			real, boxed = append(real, x.real), append(boxed, x.boxed)
		}
		format := randomFormat(r, len(real))
		if hasPtr || strings.Contains(format, "p") {
			continue // addresses differ between real and raw values
		}
		want := fmt.Sprintf(format, real...)
		if got := cellvalue.Sprintf(format, boxed...); got != want {
			failures++
			t.Errorf("Sprintf(%q, %v):\n got %q\nwant %q", format, real, got, want)
		}
		we, ge := fmt.Errorf(format, real...), cellvalue.Errorf(format, boxed...)
		if we.Error() != ge.Error() || fmt.Sprintf("%T", we) != fmt.Sprintf("%T", ge) || unwrapCount(we) != unwrapCount(ge) {
			failures++
			t.Errorf("Errorf(%q, %v):\n got %q %T %d\nwant %q %T %d", format, real, ge, ge, unwrapCount(ge), we, we, unwrapCount(we))
		}
		if w, g := fmt.Sprint(real...), cellvalue.Sprint(boxed...); w != g {
			failures++
			t.Errorf("Sprint(%v): %q, want %q", real, g, w)
		}
	}
}
