package assist

import (
	"testing"
	"unicode/utf8"
)

// TestEveryCursorPosition runs all three requests at every cursor position of
// awkward cells: none may panic, and ranges must stay inside the cell.
func TestEveryCursorPosition(t *testing.T) {
	sc := yaegiScope(t,
		"type node struct {\n\tnext *node\n\tVal  any\n}",
		"var head = &node{Val: \"é\"}",
	)
	cells := []string{
		"fmt.Println(\"héllo 🙂\", head.next.Val.(string)[0], 'x', `raw`) // done",
		"for i := range 3 {\n\tx := time.Now().Add(time.Duration(i) * time.Second).\n",
		"}}}((([[[ ... .. . 1.e5 0x 'a",
		"/* unterminated 🙂",
		"import (\n\t\"fmt\"\n\t\"enc",
		"head.next.next.Val.",
		"func (n *node) Len() int { if n == nil { return 0 }; return 1 + n.next.Len() }",
		"\"\\",
		"x := []map[string]func() int{}\nx[0][\"a\"]().",
	}
	for _, code := range cells {
		n := utf8.RuneCountInString(code)
		for cur := -1; cur <= n+1; cur++ {
			c := shared.Complete(code, cur, sc)
			if c.CursorStart < 0 || c.CursorEnd > n || c.CursorStart > c.CursorEnd || c.Matches == nil {
				t.Errorf("%q at %d: bad completion %+v", code, cur, c)
			}
			for _, d := range []int{0, 1} {
				if data, ok := shared.Inspect(code, cur, d, sc); ok && data["text/plain"] == "" {
					t.Errorf("%q at %d: found but empty", code, cur)
				}
			}
		}
		if st, _ := IsComplete(code); st != "complete" && st != "incomplete" && st != "invalid" {
			t.Errorf("%q: status %q", code, st)
		}
	}
}

func BenchmarkCompleteMember(b *testing.B) {
	sc := &fakeScope{imports: preImports}
	docs("fmt")
	for i := 0; i < b.N; i++ {
		shared.Complete("x := strings.Spl", 16, sc)
	}
}
