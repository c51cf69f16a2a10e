package viz

import (
	"html"
	"regexp"
	"strings"
)

// Inline styles shared by the HTML pieces. Colours are inherited or
// half-transparent grey, so the output reads well in light and dark themes.
const (
	tableStyle = "border-collapse:collapse;font-family:system-ui,-apple-system,'Segoe UI',sans-serif;" +
		"font-size:13px;font-variant-numeric:tabular-nums;color:inherit;margin:4px 0"
	captionStyle = "caption-side:top;text-align:left;font-weight:600;padding:2px 0 6px"
	thStyle      = "border-bottom:2px solid rgba(128,128,128,.55);padding:3px 10px;text-align:left;font-weight:600"
	tdStyle      = "border-bottom:1px solid rgba(128,128,128,.25);padding:3px 10px;text-align:left"
	tdNumStyle   = "border-bottom:1px solid rgba(128,128,128,.25);padding:3px 10px;text-align:right;white-space:nowrap"
)

// numericCell matches cells that read as a number with an optional unit
// ("4.00 GB", "-3", "55.4 GB/s", "12%"); they are right-aligned.
var numericCell = regexp.MustCompile(`^[-+−]?[0-9][0-9.,_]*(e[-+]?[0-9]+)?( ?[A-Za-zµ/%]+(/s)?)?$`)

// TableHTML renders a table with an optional title (as its caption), a
// header row and body rows. All text is HTML-escaped. Cells that read as
// numbers are right-aligned. Rows shorter than the header are padded with
// empty cells; longer rows keep their extra cells.
func TableHTML(title string, header []string, rows [][]string) string {
	var b strings.Builder
	b.WriteString(`<table style="` + tableStyle + `">`)
	if title != "" {
		b.WriteString(`<caption style="` + captionStyle + `">` + html.EscapeString(title) + `</caption>`)
	}
	if len(header) > 0 {
		b.WriteString("<thead><tr>")
		for _, h := range header {
			b.WriteString(`<th style="` + thStyle + `">` + html.EscapeString(h) + `</th>`)
		}
		b.WriteString("</tr></thead>")
	}
	b.WriteString("<tbody>")
	for _, row := range rows {
		b.WriteString("<tr>")
		n := max(len(row), len(header))
		for i := 0; i < n; i++ {
			cell := ""
			if i < len(row) {
				cell = row[i]
			}
			style := tdStyle
			if numericCell.MatchString(strings.TrimSpace(cell)) {
				style = tdNumStyle
			}
			b.WriteString(`<td style="` + style + `">` + html.EscapeString(cell) + `</td>`)
		}
		b.WriteString("</tr>")
	}
	b.WriteString("</tbody></table>")
	return b.String()
}

// TimelineTable renders spans as an HTML table with one row per span, in
// the given order: lane, label, kind, start, end, duration, bytes and
// GB/s. Bytes and GB/s are left empty for spans that moved no bytes; a span
// whose End is before its Start is flagged in the duration column.
func TimelineTable(spans []Span) string {
	header := []string{"lane", "label", "kind", "start", "end", "duration", "bytes", "GB/s"}
	staged := false
	for _, s := range spans {
		staged = staged || s.Stages
	}
	if staged {
		header = append(header, "queued", "submitted")
	}
	rows := make([][]string, 0, len(spans))
	for _, s := range spans {
		d := s.End - s.Start
		dur := FormatDuration(d)
		if d < 0 {
			dur = "invalid: end before start"
		}
		bytes, rate := "", ""
		if s.Bytes > 0 {
			bytes = FormatBytes(s.Bytes)
			if d > 0 {
				rate = sig3(rateGBs(s.Bytes, d))
			}
		}
		row := []string{s.Lane, s.Label, s.Kind, FormatDuration(s.Start), FormatDuration(s.End), dur, bytes, rate}
		if staged {
			q, sub := "", ""
			if s.Stages {
				q, sub = FormatDuration(s.Submitted-s.Queued), FormatDuration(s.Start-s.Submitted)
			}
			row = append(row, q, sub)
		}
		rows = append(rows, row)
	}
	return TableHTML("", header, rows)
}
