package assist

import (
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

// Front ends written in JavaScript hold the cell as UTF-16, where an emoji
// is two code units; the protocol (5.2 on) counts code points, and
// JupyterLab 4, Notebook 7 and classic Notebook convert before they send
// (e2e/browser checks it in each). These tests pin the kernel's side: with
// astral characters before the cursor, the cursor and the reply's range
// are code points, never UTF-16 units or bytes, so an editor that maps
// them back replaces exactly the word being completed.

func utf16Len(s string) int { return len(utf16.Encode([]rune(s))) }

func TestCompleteCountsCodePointsNotUTF16(t *testing.T) {
	sc := &fakeScope{imports: preImports}
	for _, code := range []string{
		`s := "héllo🙂"; strings.ToUp|`,
		"// 🙂🙂🙂 three emoji, six UTF-16 units\nstrings.ToUp|",
		`s := "𝐚𝐚𝐚"; fmt.Sprin|`,
	} {
		c, plain := complete(t, shared, code, sc)
		i := strings.Index(code, "|")
		word := strings.LastIndex(code[:i], ".") + 1
		if utf16Len(code[:word]) == utf8.RuneCountInString(code[:word]) {
			t.Fatalf("%q: the test needs astral characters before the cursor", code)
		}
		if want := utf8.RuneCountInString(code[:word]); c.CursorStart != want {
			t.Errorf("%q: cursor_start %d, want %d code points (UTF-16 would be %d)", code, c.CursorStart, want, utf16Len(code[:word]))
		}
		if want := utf8.RuneCountInString(plain); c.CursorEnd != want {
			t.Errorf("%q: cursor_end %d, want %d code points", code, c.CursorEnd, want)
		}
		// Replacing [start, end) in code points with the first match gives
		// the completed line.
		r := []rune(plain)
		if len(c.Matches) == 0 {
			t.Fatalf("%q: no matches", code)
		}
		got := string(r[:c.CursorStart]) + c.Matches[0] + string(r[c.CursorEnd:])
		if !strings.HasPrefix(got, code[:word]) || !strings.HasPrefix(c.Matches[0], code[word:i]) {
			t.Errorf("%q: completing with %q gives %q", code, c.Matches[0], got)
		}
	}
}

func TestInspectCountsCodePointsNotUTF16(t *testing.T) {
	sc := &fakeScope{imports: preImports}
	// The cursor sits on ToUpper only if it counts code points: read as
	// UTF-16 units it would land two places earlier, on "strings.".
	code := `s := "🙂🙂"; strings.ToUp|per(s)`
	got, ok := inspect(t, code, 0, sc)
	if !ok {
		t.Fatalf("%q: nothing found", code)
	}
	wantText(t, code, got, "func ToUpper(s string) string")
	// A cursor past the end (as a UTF-16 count of a cell with emoji can be)
	// is taken as the end, not an error or a panic.
	end := `s := "🙂🙂"; strings.ToUpper`
	data, ok := shared.Inspect(end, utf16Len(end), 0, sc)
	if plain, _ := data["text/plain"].(string); !ok || !strings.Contains(plain, "func ToUpper(") {
		t.Errorf("%q with the cursor past the end: %v, %v", end, ok, data)
	}
}
