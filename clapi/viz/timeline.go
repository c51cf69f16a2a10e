package viz

import (
	"fmt"
	"html"
	"math"
	"sort"
	"strings"
	"time"
)

// Span is one interval on a timeline: a command on a queue, or the time the
// host spent inside a call.
type Span struct {
	Lane  string // the row it is drawn in, e.g. "host" or "queue 0"
	Label string // text drawn on or beside the bar
	Kind  string // picks the colour: write, read, copy, kernel, fill, map, marker, host (others get spare colours)
	// Start and End are measured from a common t0 shared by all spans.
	Start, End time.Duration
	Bytes      int64 // bytes moved, or 0; gives the rate in the tooltip
	// Stages, when the device reported them: the command was queued at
	// Queued and submitted at Submitted, then ran from Start to End. They
	// are drawn thin before the bar.
	Stages            bool
	Queued, Submitted time.Duration
}

// from is where the span's drawing begins: its queued stage, if known.
func (s Span) from() time.Duration {
	if s.Stages && s.Queued < s.Start {
		return s.Queued
	}
	return s.Start
}

// kindColours are the colours of the known kinds, in legend order; they
// keep enough contrast with white text inside the bars.
var kindColours = []struct{ kind, colour string }{
	{"host", "#7f7f7f"},
	{"write", "#1f77b4"},
	{"read", "#ff7f0e"},
	{"copy", "#2ca02c"},
	{"kernel", "#d62728"},
	{"fill", "#17becf"},
	{"map", "#9467bd"},
	{"marker", "#8c564b"},
}

// spareColours are handed to unknown kinds in order of first appearance.
var spareColours = []string{"#e377c2", "#bcbd22", "#393b79", "#637939", "#8c6d31", "#843c39"}

// Layout of the timeline, in pixels.
const (
	tlWidth     = 960
	tlRowH      = 24
	tlBarH      = 18
	tlLanePad   = 6
	tlFontSize  = 12
	tlLabelSize = 11
	tlAxisH     = 34
	tlLegendH   = 26
	tlFont      = `system-ui,-apple-system,'Segoe UI',Helvetica,Arial,sans-serif`
	tlInk       = "#222222"
	tlGrid      = "#dddddd"
)

// charWidth is the average advance of a sans-serif character, in ems,
// rounded up.
const charWidth = 0.55

// textWidth estimates the rendered width of s in a sans-serif font of the
// given size; it errs on the wide side so that labels that "fit" do fit.
func textWidth(s string, size float64) float64 {
	return float64(len([]rune(s))) * size * charWidth
}

// TimelineSVG draws spans as a Gantt chart: one lane per distinct Lane in
// order of first appearance ("host" first if present), overlapping spans of
// a lane stacked in sub-rows, bars coloured by Kind, a time axis in the unit
// that suits the range, labels inside the bars where they fit and beside
// them otherwise, a tooltip per bar with the exact figures, and a legend.
// The SVG is self-contained (system fonts, no scripts) and draws on its own
// white background, so it reads the same in light and dark themes and on
// GitHub. Spans whose End is before their Start are drawn as markers at
// their Start and reported in a warning line on the picture.
func TimelineSVG(title string, spans []Span) string {
	if len(spans) == 0 {
		return messageSVG(title, "no spans to draw: the timeline is empty")
	}
	// Time range, including t0.
	lo, hi := time.Duration(0), time.Duration(0)
	invalid := 0
	for _, s := range spans {
		end := s.End
		if end < s.Start {
			invalid++
			end = s.Start
		}
		lo, hi = min(lo, s.from()), max(hi, end)
	}
	if hi <= lo {
		hi = lo + time.Microsecond
	}

	lanes := laneOrder(spans)
	rows, laneRows := assignRows(spans, lanes)

	// Vertical layout.
	laneW := 60.0
	for _, l := range lanes {
		laneW = max(laneW, textWidth(l, tlFontSize)+18)
	}
	laneW = min(laneW, 220)
	left, right := laneW, float64(tlWidth-24)
	top := 14.0
	if title != "" {
		top += 24
	}
	if invalid > 0 {
		top += 18
	}
	laneY := make(map[string]float64, len(lanes))
	y := top
	for _, l := range lanes {
		laneY[l] = y
		y += float64(laneRows[l])*tlRowH + 2*tlLanePad
	}
	plotBottom := y
	height := plotBottom + tlAxisH + tlLegendH + 8

	scale := func(t time.Duration) float64 {
		return left + (right-left)*float64(t-lo)/float64(hi-lo)
	}

	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%.0f" viewBox="0 0 %d %.0f" font-family="%s" font-size="%d" role="img" class="gocl-timeline">`+"\n",
		tlWidth, height, tlWidth, height, tlFont, tlFontSize)
	if title != "" {
		fmt.Fprintf(&b, "<title>%s</title>\n", esc(title))
	}
	fmt.Fprintf(&b, `<rect x="0" y="0" width="%d" height="%.0f" rx="6" fill="#ffffff"/>`+"\n", tlWidth, height)
	if title != "" {
		fmt.Fprintf(&b, `<text x="12" y="24" font-size="15" font-weight="600" fill="%s">%s</text>`+"\n", tlInk, esc(title))
	}
	if invalid > 0 {
		fmt.Fprintf(&b, `<text x="12" y="%.0f" font-size="12" fill="#b00020">warning: %d span(s) end before they start; drawn as markers at their start: check the event timestamps</text>`+"\n",
			top-8, invalid)
	}

	// Grid and axis.
	ticks, unit, div := timeTicks(lo, hi, int((right-left)/90))
	for _, t := range ticks {
		x := scale(t)
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.0f" x2="%.1f" y2="%.0f" stroke="%s" stroke-width="1"/>`+"\n", x, top, x, plotBottom, tlGrid)
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.0f" x2="%.1f" y2="%.0f" stroke="%s"/>`+"\n", x, plotBottom, x, plotBottom+5, tlInk)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.0f" text-anchor="middle" fill="%s">%s</text>`+"\n", x, plotBottom+18, tlInk, tickLabel(t, div, ticks))
	}
	fmt.Fprintf(&b, `<line x1="%.0f" y1="%.0f" x2="%.0f" y2="%.0f" stroke="%s"/>`+"\n", left, plotBottom, right, plotBottom, tlInk)
	fmt.Fprintf(&b, `<text x="%.0f" y="%.0f" text-anchor="end" fill="%s">time (%s)</text>`+"\n", right, plotBottom+32, tlInk, unit)

	// Lanes.
	for i, l := range lanes {
		y0 := laneY[l]
		h := float64(laneRows[l])*tlRowH + 2*tlLanePad
		if i > 0 {
			fmt.Fprintf(&b, `<line x1="8" y1="%.0f" x2="%.0f" y2="%.0f" stroke="%s"/>`+"\n", y0, right, y0, tlGrid)
		}
		name := l
		if name == "" {
			name = "(no lane)"
		}
		fmt.Fprintf(&b, `<text x="%.0f" y="%.1f" text-anchor="end" dominant-baseline="central" fill="%s">%s</text>`+"\n",
			left-8, y0+h/2, tlInk, esc(truncate(name, left-16, tlFontSize)))
	}

	// Bars first, then labels, so that labels can avoid every bar.
	colours := colourMap(spans)
	bars := make([]bar, len(spans))
	occupied := map[rowKey][]interval{}
	for i, s := range spans {
		end := max(s.End, s.Start)
		x0, x1 := scale(s.Start), scale(end)
		w := max(x1-x0, 2)
		key := rowKey{s.Lane, rows[i]}
		bars[i] = bar{x: x0, w: w, y: laneY[s.Lane] + tlLanePad + float64(rows[i])*tlRowH + (tlRowH-tlBarH)/2, row: key}
		occupied[key] = append(occupied[key], interval{x0, x0 + w})
		colour := colours[strings.ToLower(s.Kind)]
		if s.Stages && s.from() < s.Start {
			// Queued (grey) then submitted (the kind's colour, faint), thin.
			ty := bars[i].y + tlBarH/2 - 3
			qx, sx := scale(s.Queued), scale(min(max(s.Submitted, s.Queued), s.Start))
			fmt.Fprintf(&b, `<g><title>%s</title><rect x="%.2f" y="%.1f" width="%.2f" height="6" fill="#bbbbbb"/><rect x="%.2f" y="%.1f" width="%.2f" height="6" fill="%s" fill-opacity="0.45"/></g>`+"\n",
				esc(spanTooltip(s)), qx, ty, max(sx-qx, 0.5), sx, ty, max(x0-sx, 0.5), colour)
			occupied[key] = append(occupied[key], interval{qx, x0})
		}
		fmt.Fprintf(&b, `<g><title>%s</title><rect x="%.2f" y="%.1f" width="%.2f" height="%d" rx="2" fill="%s"/></g>`+"\n",
			esc(spanTooltip(s)), x0, bars[i].y, w, tlBarH, colour)
	}
	for i, s := range spans {
		if text := barLabel(s, bars[i], occupied, left, right); text != "" {
			b.WriteString(text + "\n")
		}
	}

	// Legend.
	lx, ly := 12.0, plotBottom+tlAxisH+10
	for _, k := range legendKinds(spans) {
		fmt.Fprintf(&b, `<rect x="%.0f" y="%.0f" width="11" height="11" rx="2" fill="%s"/>`, lx, ly, colours[k])
		fmt.Fprintf(&b, `<text x="%.0f" y="%.0f" fill="%s">%s</text>`+"\n", lx+15, ly+10, tlInk, esc(k))
		lx += 15 + textWidth(k, tlFontSize) + 18
	}
	b.WriteString("</svg>\n")
	return b.String()
}

// laneOrder lists the distinct lanes in order of first appearance, with
// "host" first if present.
func laneOrder(spans []Span) []string {
	var lanes []string
	seen := map[string]bool{}
	for _, s := range spans {
		if s.Lane == "host" && !seen["host"] {
			lanes = append(lanes, "host")
			seen["host"] = true
		}
	}
	for _, s := range spans {
		if !seen[s.Lane] {
			seen[s.Lane] = true
			lanes = append(lanes, s.Lane)
		}
	}
	return lanes
}

// assignRows gives each span a sub-row within its lane so that overlapping
// spans do not hide each other, and returns the number of sub-rows of each
// lane.
func assignRows(spans []Span, lanes []string) (rows []int, laneRows map[string]int) {
	rows = make([]int, len(spans))
	laneRows = make(map[string]int, len(lanes))
	byLane := map[string][]int{}
	for i, s := range spans {
		byLane[s.Lane] = append(byLane[s.Lane], i)
	}
	for _, l := range lanes {
		idx := byLane[l]
		sort.SliceStable(idx, func(a, b int) bool { return spans[idx[a]].from() < spans[idx[b]].from() })
		var ends []time.Duration // end of the last span in each sub-row
		for _, i := range idx {
			s := spans[i]
			end := max(s.End, s.Start)
			placed := false
			for r, e := range ends {
				if e <= s.from() {
					ends[r], rows[i], placed = end, r, true
					break
				}
			}
			if !placed {
				rows[i] = len(ends)
				ends = append(ends, end)
			}
		}
		laneRows[l] = max(len(ends), 1)
	}
	return rows, laneRows
}

// colourMap maps every (lower-cased) kind in spans to its colour.
func colourMap(spans []Span) map[string]string {
	m := make(map[string]string)
	for _, kc := range kindColours {
		m[kc.kind] = kc.colour
	}
	spare := 0
	for _, s := range spans {
		k := strings.ToLower(s.Kind)
		if _, ok := m[k]; !ok {
			m[k] = spareColours[spare%len(spareColours)]
			spare++
		}
	}
	return m
}

// legendKinds lists the kinds present: known kinds in their fixed order,
// then the others in order of first appearance.
func legendKinds(spans []Span) []string {
	present := map[string]bool{}
	var others []string
	known := map[string]bool{}
	for _, kc := range kindColours {
		known[kc.kind] = true
	}
	for _, s := range spans {
		k := strings.ToLower(s.Kind)
		if !present[k] && !known[k] {
			others = append(others, k)
		}
		present[k] = true
	}
	var out []string
	for _, kc := range kindColours {
		if present[kc.kind] {
			out = append(out, kc.kind)
		}
	}
	return append(out, others...)
}

// spanTooltip is the text shown on hover: every figure of the span.
func spanTooltip(s Span) string {
	d := s.End - s.Start
	var b strings.Builder
	label := s.Label
	if label == "" {
		label = s.Kind
	}
	fmt.Fprintf(&b, "%s (%s, %s)\n%s → %s: %s", label, s.Kind, s.Lane, FormatDuration(s.Start), FormatDuration(s.End), FormatDuration(d))
	if d < 0 {
		b.WriteString(" (invalid: ends before it starts)")
	}
	if s.Bytes > 0 {
		fmt.Fprintf(&b, "\n%s at %s", FormatBytes(s.Bytes), FormatRate(s.Bytes, d))
	}
	if s.Stages {
		fmt.Fprintf(&b, "\nqueued %s, submitted %s before it started", FormatDuration(s.Submitted-s.Queued), FormatDuration(s.Start-s.Submitted))
	}
	return b.String()
}

// bar is the geometry of one span's rectangle.
type bar struct {
	x, w, y float64
	row     rowKey
}

// rowKey names one sub-row of one lane.
type rowKey struct {
	lane string
	row  int
}

// interval is a horizontal extent in pixels.
type interval struct{ lo, hi float64 }

// free reports whether [lo, hi] overlaps none of the intervals in use,
// ignoring the bar itself (self).
func free(used []interval, lo, hi float64, self interval) bool {
	for _, u := range used {
		if u == self {
			continue
		}
		if lo < u.hi && u.lo < hi {
			return false
		}
	}
	return true
}

// barLabel places the span's label, with its duration when room allows:
// inside the bar when it fits, else beside it (right, then left) where no
// other bar or label is in the way, else shortened inside, else not at all
// (the tooltip still has it). Placed labels are added to occupied.
func barLabel(s Span, g bar, occupied map[rowKey][]interval, left, right float64) string {
	if s.Label == "" {
		return ""
	}
	withDur := s.Label + " · " + FormatDuration(max(s.End-s.Start, 0))
	ty := g.y + tlBarH/2
	text := func(x float64, anchor, fill, str string) string {
		a := ""
		if anchor != "" {
			a = ` text-anchor="` + anchor + `"`
		}
		return fmt.Sprintf(`<text x="%.1f" y="%.1f" font-size="%d"%s dominant-baseline="central" fill="%s">%s</text>`,
			x, ty, tlLabelSize, a, fill, esc(str))
	}
	for _, str := range []string{withDur, s.Label} {
		if textWidth(str, tlLabelSize)+8 <= g.w {
			return text(g.x+4, "", "#ffffff", str)
		}
	}
	used := occupied[g.row]
	self := interval{g.x, g.x + g.w}
	for _, str := range []string{withDur, s.Label} {
		tw := textWidth(str, tlLabelSize)
		if lo, hi := g.x+g.w+4, g.x+g.w+4+tw; hi <= right+20 && free(used, lo, hi, self) {
			occupied[g.row] = append(used, interval{lo, hi})
			return text(lo, "", tlInk, str)
		}
		if lo, hi := g.x-4-tw, g.x-4; lo >= left && free(used, lo, hi, self) {
			occupied[g.row] = append(used, interval{lo, hi})
			return text(hi, "end", tlInk, str)
		}
	}
	if g.w >= 40 {
		return text(g.x+4, "", "#ffffff", truncate(s.Label, g.w-8, tlLabelSize))
	}
	return ""
}

// truncate shortens s with an ellipsis so that it fits width pixels.
func truncate(s string, width, size float64) string {
	if textWidth(s, size) <= width {
		return s
	}
	r := []rune(s)
	n := int(width/(size*charWidth)) - 1
	if n < 1 {
		return "…"
	}
	return string(r[:min(n, len(r))]) + "…"
}

// timeTicks chooses about want ticks between lo and hi at a 1-2-5 step, and
// the unit to label them in with its divisor in nanoseconds.
func timeTicks(lo, hi time.Duration, want int) (ticks []time.Duration, unit string, div float64) {
	want = max(want, 2)
	span := float64(hi - lo)
	raw := span / float64(want)
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := mag
	for _, m := range []float64{1, 2, 5, 10} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	step = max(step, 1)
	top := max(math.Abs(float64(lo)), math.Abs(float64(hi)))
	switch {
	case top >= 1e9:
		unit, div = "s", 1e9
	case top >= 1e6:
		unit, div = "ms", 1e6
	case top >= 1e3:
		unit, div = "µs", 1e3
	default:
		unit, div = "ns", 1
	}
	for t := math.Ceil(float64(lo)/step) * step; t <= float64(hi)+step*1e-9; t += step {
		ticks = append(ticks, time.Duration(math.Round(t)))
	}
	return ticks, unit, div
}

// tickLabel formats t in the axis unit with just enough decimals to tell
// neighbouring ticks apart.
func tickLabel(t time.Duration, div float64, ticks []time.Duration) string {
	decimals := 0
	if len(ticks) > 1 {
		step := float64(ticks[1]-ticks[0]) / div
		for step < 1 && decimals < 9 {
			step *= 10
			decimals++
		}
	}
	return fmt.Sprintf("%.*f", decimals, float64(t)/div)
}

// messageSVG is a small picture that says why there is nothing to draw.
func messageSVG(title, msg string) string {
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="70" viewBox="0 0 %d 70" font-family="%s" font-size="13" role="img">`+"\n", tlWidth, tlWidth, tlFont)
	fmt.Fprintf(&b, `<rect x="0" y="0" width="%d" height="70" rx="6" fill="#ffffff"/>`+"\n", tlWidth)
	fmt.Fprintf(&b, `<text x="12" y="26" font-size="15" font-weight="600" fill="%s">%s</text>`+"\n", tlInk, esc(title))
	fmt.Fprintf(&b, `<text x="12" y="52" fill="#b00020">%s</text>`+"\n", esc(msg))
	b.WriteString("</svg>\n")
	return b.String()
}

// esc makes s safe as XML text or attribute content: it escapes markup
// characters, replaces invalid UTF-8 and drops control characters, which
// XML 1.0 forbids.
func esc(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.Map(func(r rune) rune {
		if r < 0x20 && r != '\n' && r != '\t' {
			return -1
		}
		return r
	}, s)
	return html.EscapeString(s)
}
