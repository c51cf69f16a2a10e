package viz

import (
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// referenceSpans is the pinned-versus-pageable experiment as a timeline.
func referenceSpans() []Span {
	ms := time.Millisecond
	return []Span{
		{Lane: "queue 0", Label: "write pageable", Kind: "write", Start: 2 * ms, End: 522 * ms, Bytes: refBytes},
		{Lane: "host", Label: "enqueue (pageable)", Kind: "host", Start: 0, End: 515 * ms},
		{Lane: "host", Label: "enqueue (pinned)", Kind: "host", Start: 600 * ms, End: 600*ms + 40*time.Microsecond},
		{Lane: "queue 0", Label: "write pinned", Kind: "write", Start: 601 * ms, End: 673 * ms, Bytes: refBytes},
		{Lane: "queue 1", Label: "sum", Kind: "kernel", Start: 610 * ms, End: 690 * ms},
		{Lane: "queue 1", Label: "overlapping", Kind: "kernel", Start: 650 * ms, End: 700 * ms},
		{Lane: "queue 1", Label: "done", Kind: "marker", Start: 700 * ms, End: 700 * ms},
		{Lane: "queue 1", Label: "custom", Kind: "Reduce", Start: 710 * ms, End: 720 * ms},
	}
}

// svgTexts returns the character data of every <text> element.
func svgTexts(t *testing.T, svg string) []string {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(svg))
	var texts []string
	inText := false
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return texts
		}
		if err != nil {
			t.Fatalf("SVG is not well-formed: %v", err)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			inText = e.Name.Local == "text"
			if inText {
				texts = append(texts, "")
			}
		case xml.CharData:
			if inText {
				texts[len(texts)-1] += string(e)
			}
		case xml.EndElement:
			inText = false
		}
	}
}

func TestTimelineSVG(t *testing.T) {
	svg := TimelineSVG("pageable vs pinned", referenceSpans())
	writeSample(t, "timeline.svg", svg)
	if !strings.HasPrefix(svg, `<svg xmlns="http://www.w3.org/2000/svg"`) {
		t.Fatalf("not a standalone SVG: %.80s", svg)
	}
	for _, banned := range []string{"<script", "@import", "url(", "href="} {
		if strings.Contains(svg, banned) {
			t.Errorf("SVG contains %q: it must be self-contained", banned)
		}
	}
	texts := svgTexts(t, svg)
	joined := strings.Join(texts, "|")
	// Lanes: host first, then the others in order of first appearance.
	iHost, iQ0, iQ1 := indexOf(texts, "host"), indexOf(texts, "queue 0"), indexOf(texts, "queue 1")
	if iHost < 0 || iQ0 < 0 || iQ1 < 0 || !(iHost < iQ0 && iQ0 < iQ1) {
		t.Errorf("lane order wrong: host %d, queue 0 %d, queue 1 %d in %q", iHost, iQ0, iQ1, joined)
	}
	for _, want := range []string{"pageable vs pinned", "time (ms)", "write pageable · 520 ms", "enqueue (pinned)", "kernel", "marker", "reduce"} {
		if !strings.Contains(joined, want) {
			t.Errorf("SVG texts lack %q: %q", want, joined)
		}
	}
	// Bars coloured by kind.
	for _, colour := range []string{"#1f77b4", "#7f7f7f", "#d62728", "#8c564b", spareColours[0]} {
		if !strings.Contains(svg, `fill="`+colour+`"`) {
			t.Errorf("no bar or swatch in %s", colour)
		}
	}
	// Tooltips carry the rate.
	if !strings.Contains(svg, "4.00 GB at 7.69 GB/s") {
		t.Errorf("tooltip of the pageable write lacks its rate")
	}
	// Ticks at a 1-2-5 step in ms, starting at 0.
	if !regexp.MustCompile(`\|0\|100\|200\|`).MatchString(joined) {
		t.Errorf("axis ticks not 0, 100, 200 ms: %q", joined)
	}
}

func TestTimelineOverlapUsesSubRows(t *testing.T) {
	spans := referenceSpans()
	lanes := laneOrder(spans)
	rows, laneRows := assignRows(spans, lanes)
	if laneRows["queue 1"] != 2 || laneRows["host"] != 1 || laneRows["queue 0"] != 1 {
		t.Fatalf("sub-rows per lane: %v, want queue 1: 2, others 1", laneRows)
	}
	if rows[4] == rows[5] {
		t.Fatalf("overlapping kernels share a row")
	}
	if rows[6] != 0 || rows[7] != 0 {
		t.Fatalf("later spans should go back to row 0: %v", rows)
	}
}

func TestTimelineBadInput(t *testing.T) {
	empty := TimelineSVG("nothing", nil)
	if !strings.Contains(strings.Join(svgTexts(t, empty), "|"), "no spans") {
		t.Errorf("empty timeline does not say so: %s", empty)
	}
	bad := TimelineSVG("bad", []Span{
		{Lane: "q", Label: `<&"evil">`, Kind: "copy", Start: 5 * time.Millisecond, End: time.Millisecond},
		{Lane: "q", Label: "ok\x00\x01", Kind: "copy", Start: 0, End: 2 * time.Millisecond},
		{Lane: "q", Label: "bad utf8 \xff", Kind: "copy", Start: 0, End: 2 * time.Millisecond},
	})
	texts := strings.Join(svgTexts(t, bad), "|")
	if !strings.Contains(texts, "1 span(s) end before they start") {
		t.Errorf("no warning for an inverted span: %q", texts)
	}
	if !strings.Contains(texts, `<&"evil">`) {
		t.Errorf("label lost or double-escaped: %q", texts)
	}
}

func TestTimeTicks(t *testing.T) {
	cases := []struct {
		lo, hi time.Duration
		unit   string
		step   time.Duration
	}{
		{0, 72 * time.Millisecond, "ms", 10 * time.Millisecond},
		{0, 40 * time.Microsecond, "µs", 5 * time.Microsecond},
		{0, 3 * time.Second, "s", 500 * time.Millisecond},
		{0, 500, "ns", 100},
	}
	for _, c := range cases {
		ticks, unit, _ := timeTicks(c.lo, c.hi, 8)
		if unit != c.unit || len(ticks) < 2 || ticks[1]-ticks[0] != c.step || ticks[0] != 0 || ticks[len(ticks)-1] > c.hi {
			t.Errorf("timeTicks(%v, %v) = %v %s, want unit %s step %v", c.lo, c.hi, ticks, unit, c.unit, c.step)
		}
	}
}

func indexOf(xs []string, s string) int {
	for i, x := range xs {
		if x == s {
			return i
		}
	}
	return -1
}

// writeSample saves a picture under $VIZ_SAMPLES, when set, for a person to
// look at.
func writeSample(t *testing.T, name, content string) {
	if dir := os.Getenv("VIZ_SAMPLES"); dir != "" {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestTimelineStages(t *testing.T) {
	spans := []Span{
		{Lane: "host", Label: "clEnqueueWriteBuffer", Kind: "host", Start: 0, End: time.Microsecond},
		{Lane: "queue 1", Label: "clEnqueueWriteBuffer", Kind: "write", Start: 3 * time.Millisecond, End: 4 * time.Millisecond,
			Stages: true, Queued: time.Microsecond, Submitted: 2 * time.Millisecond},
	}
	svg := TimelineSVG("t", spans)
	if !strings.Contains(svg, `fill-opacity="0.45"`) || !strings.Contains(svg, "queued 2.00 ms, submitted 1.00 ms before it started") {
		t.Errorf("stages not drawn:\n%s", svg)
	}
	spans[1].Stages = false
	if strings.Contains(TimelineSVG("t", spans), `fill-opacity="0.45"`) {
		t.Error("stages drawn for a span without them")
	}
}

func TestTimelineTableStages(t *testing.T) {
	spans := []Span{{Lane: "queue 1", Label: "k", Kind: "kernel", Start: 3 * time.Millisecond, End: 4 * time.Millisecond,
		Stages: true, Queued: time.Millisecond, Submitted: 2 * time.Millisecond}}
	if tab := TimelineTable(spans); !strings.Contains(tab, ">queued<") || !strings.Contains(tab, "1.00 ms") {
		t.Errorf("stages missing from the table:\n%s", tab)
	}
	spans[0].Stages = false
	if strings.Contains(TimelineTable(spans), ">queued<") {
		t.Error("a stage column without stages")
	}
}
