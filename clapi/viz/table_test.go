package viz

import (
	"encoding/xml"
	"io"
	"strings"
	"testing"
	"time"
)

// wellFormed fails the test if s is not well-formed XML.
func wellFormed(t *testing.T, what, s string) {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(s))
	for {
		_, err := d.Token()
		if err != nil {
			if err == io.EOF {
				return
			}
			t.Fatalf("%s is not well-formed XML: %v\n%s", what, err, s)
		}
	}
}

func TestTableHTMLEscapesAndPads(t *testing.T) {
	got := TableHTML("a <b> & c", []string{"name", "size"}, [][]string{
		{"<script>alert(1)</script>", "4.00 GB"},
		{"short"},
	})
	wellFormed(t, "TableHTML", got)
	if strings.Contains(got, "<script>") {
		t.Fatalf("cell not escaped: %s", got)
	}
	for _, want := range []string{"a &lt;b&gt; &amp; c", "&lt;script&gt;", "<th", "name"} {
		if !strings.Contains(got, want) {
			t.Errorf("TableHTML lacks %q: %s", want, got)
		}
	}
	if n := strings.Count(got, "<td"); n != 4 {
		t.Errorf("got %d cells, want 4 (short row padded)", n)
	}
	if !strings.Contains(got, `text-align:right;white-space:nowrap">4.00 GB`) {
		t.Errorf("numeric cell not right-aligned: %s", got)
	}
}

func TestTimelineTable(t *testing.T) {
	got := TimelineTable([]Span{
		{Lane: "queue", Label: "write a", Kind: "write", Start: 0, End: 72 * time.Millisecond, Bytes: 4_000_000_000},
		{Lane: "host", Label: "wait", Kind: "host", Start: 10 * time.Millisecond, End: 5 * time.Millisecond},
	})
	wellFormed(t, "TimelineTable", got)
	for _, want := range []string{"write a", "72.0 ms", "4.00 GB", "55.6", "invalid: end before start"} {
		if !strings.Contains(got, want) {
			t.Errorf("TimelineTable lacks %q: %s", want, got)
		}
	}
}
