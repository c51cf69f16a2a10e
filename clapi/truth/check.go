package truth

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Notebook is what the check reads from a saved notebook: its findings, the
// device table it printed, and all of its prose.
type Notebook struct {
	Reports []Report
	Prose   []string          // every text output: stream, text/plain, text/markdown, text/html
	Table   map[string]string // the device's parameters as the notebook printed them (dev.Info(), "Shared virtual memory: ...")
	Device  string            // the "Device: ..." line
}

// ReadNotebook parses a saved .ipynb (nbformat 4).
func ReadNotebook(raw []byte) (*Notebook, error) {
	var f struct {
		Cells []struct {
			CellType string `json:"cell_type"`
			Outputs  []struct {
				Text json.RawMessage            `json:"text"`
				Data map[string]json.RawMessage `json:"data"`
			} `json:"outputs"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(raw, &f); err != nil {
		return nil, fmt.Errorf("not a notebook: %v", err)
	}
	nb := &Notebook{Table: map[string]string{}}
	for _, c := range f.Cells {
		for _, o := range c.Outputs {
			if len(o.Text) > 0 {
				nb.Prose = append(nb.Prose, multiline(o.Text))
			}
			for _, mime := range []string{"text/plain", "text/markdown", "text/html"} {
				if d, ok := o.Data[mime]; ok {
					nb.Prose = append(nb.Prose, multiline(d))
				}
			}
			if d, ok := o.Data[MIME]; ok {
				var r Report
				if err := json.Unmarshal(d, &r); err != nil {
					return nil, fmt.Errorf("a %s output does not parse: %v", MIME, err)
				}
				nb.Reports = append(nb.Reports, r)
			}
		}
	}
	for _, p := range nb.Prose {
		for _, m := range tableLine.FindAllStringSubmatch(p, -1) {
			if _, ok := nb.Table[m[1]]; !ok {
				nb.Table[m[1]] = strings.TrimSpace(m[2])
			}
		}
		if m := svmLine.FindStringSubmatch(p); m != nil {
			if _, ok := nb.Table["SVM_CAPABILITIES"]; !ok {
				nb.Table["SVM_CAPABILITIES"] = strings.TrimSpace(m[1])
			}
		}
		if m := deviceLine.FindStringSubmatch(p); m != nil && nb.Device == "" {
			nb.Device = m[1]
		}
	}
	return nb, nil
}

var (
	tableLine  = regexp.MustCompile(`(?m)^([A-Z][A-Z0-9_]+(?:_NV|_KHR|_AMD)?): (.*)$`)
	svmLine    = regexp.MustCompile(`(?m)^Shared virtual memory: (.*)$`)
	deviceLine = regexp.MustCompile(`(?m)^Device: (.+)$`)
)

func multiline(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var lines []string
	if json.Unmarshal(raw, &lines) == nil {
		return strings.Join(lines, "")
	}
	return ""
}

// link is the bound the check holds rates to: the findings' own link, else
// a stated bound by the device's type.
func (nb *Notebook) link() Link {
	for _, r := range nb.Reports {
		if r.Link.GBs > 0 {
			return r.Link
		}
	}
	if strings.Contains(nb.Device, "· CPU") || strings.EqualFold(nb.Table["HOST_UNIFIED_MEMORY"], "true") || strings.Contains(nb.Device, "pthread") || strings.Contains(nb.Device, "cpu-") {
		return DeviceLink("CPU", true, nil)
	}
	return DeviceLink("GPU", false, nil)
}

// Check returns every contradiction between the notebook's conclusions and
// its own numbers. needFindings says the notebook must carry structured
// findings at all (its conclusions then rest on numbers a check can read).
func (nb *Notebook) Check(needFindings bool) []string {
	var problems []string
	add := func(format string, a ...any) { problems = append(problems, fmt.Sprintf(format, a...)) }
	link := nb.link()
	if needFindings && len(nb.Reports) == 0 {
		add("no structured findings (%s): its conclusions carry no numbers a check can read", MIME)
	}
	for _, r := range nb.Reports {
		l := r.Link
		if l.GBs <= 0 {
			add("findings for %q name no link bound", r.Device)
			l = link
		}
		for _, f := range r.Findings {
			for _, p := range checkFinding(f, l, nb.Table) {
				add("%s (%q)", p, clip(f.Sentence))
			}
		}
	}
	problems = append(problems, checkProse(nb, link)...)
	return problems
}

func clip(s string) string {
	if len(s) > 160 {
		return s[:160] + "…"
	}
	return s
}

// checkFinding tests one finding against its own numbers and the table.
func checkFinding(f Finding, link Link, table map[string]string) []string {
	var p []string
	need := func(ok bool, what string) bool {
		if !ok {
			p = append(p, fmt.Sprintf("%s finding without %s: a conclusion whose number is absent", f.Claim, what))
		}
		return ok
	}
	host := time.Duration(f.HostNs)
	copyTime := time.Duration(f.DeviceNs)
	if f.Over == "wall" || copyTime <= 0 {
		copyTime = time.Duration(f.WallNs)
	}
	switch f.Claim {
	case Rate:
		if need(f.GBs > 0, "its rate") && need(f.Bytes > 0, "bytes") {
			d := time.Duration(f.DeviceNs)
			if f.Over == "wall" {
				d = time.Duration(f.WallNs)
			}
			if need(d > 0, "the time the rate is over") {
				if got := GBs(f.Bytes, d); math.Abs(got-f.GBs) > 0.02*got {
					p = append(p, fmt.Sprintf("rate %.3g GB/s is not its bytes over its time (%.3g GB/s)", f.GBs, got))
				}
			}
			if f.GBs > link.GBs*1.02 {
				p = append(p, fmt.Sprintf("a transfer rate of %.4g GB/s, above the link's physical limit of %.3g GB/s (%s)", f.GBs, link.GBs, link.Source))
			}
		}
	case NoCopy:
		if need(f.HostNs > 0, "the host time") && host > BlockedMinimum {
			p = append(p, fmt.Sprintf("\"zero copy\" on a call that held the host %s (over %s)", Human(host), Human(BlockedMinimum)))
		}
		need(f.WallNs > 0, "the time to completion")
	case ReturnedAtOnce:
		if need(f.HostNs > 0, "the host time") && need(copyTime > 0, "the copy's time") &&
			float64(host) > BlockedShare*float64(copyTime) {
			p = append(p, fmt.Sprintf("\"returned at once\" on a call that held the host %s of a %s copy", Human(host), Human(copyTime)))
		}
	case Blocked, PartlyBlocked:
		if need(f.HostNs > 0, "the host time") && need(copyTime > 0, "the copy's time") && float64(host) < PartialShare*float64(copyTime) {
			p = append(p, fmt.Sprintf("%q on a call that held the host only %s of a %s copy", f.Claim, Human(host), Human(copyTime)))
		}
	case Blocking, TooShort:
		need(f.HostNs > 0, "the host time")
	case Untimed:
		need(f.Bytes > 0, "bytes")
	case OverLink:
		need(f.Bytes > 0 && copyTime > 0, "bytes and a time")
	case Capability:
		if need(f.Capability != "" && f.Value != "", "the capability and its value") {
			if v, ok := table[f.Capability]; ok && !sameCapability(v, f.Value) {
				p = append(p, fmt.Sprintf("claims %s %q, but the notebook's own device table says %q", f.Capability, f.Value, v))
			}
		}
	case PinnedByBuffer:
		if need(f.WrappedGBs > 0 && f.UnwrappedGBs > 0 && f.PinnedGBs > 0, "the three rates") &&
			(f.WrappedGBs < 0.8*f.PinnedGBs || f.UnwrappedGBs >= 0.5*f.WrappedGBs) {
			p = append(p, fmt.Sprintf("claims the slice copies like pinned memory, but its rates are %.3g GB/s wrapped, %.3g unwrapped, %.3g pinned", f.WrappedGBs, f.UnwrappedGBs, f.PinnedGBs))
		}
	case NotPinned:
		need(f.WrappedGBs > 0 && f.UnwrappedGBs > 0, "the two rates")
	default:
		p = append(p, fmt.Sprintf("unknown claim %q", f.Claim))
	}
	p = append(p, sentenceNumbers(f)...)
	return p
}

func sameCapability(table, claimed string) bool {
	norm := func(s string) string {
		s = strings.ToLower(strings.TrimSpace(s))
		if s == "" || s == "0" || strings.HasPrefix(s, "none") {
			return "none"
		}
		return s
	}
	return norm(table) == norm(claimed)
}

var (
	durationRe = regexp.MustCompile(`(\d+(?:\.\d+)?) (s|ms|µs|us|ns)\b`)
	rateRe     = regexp.MustCompile(`(\d+(?:\.\d+)?) GB/s`)
)

// sentenceNumbers finds durations and rates a sentence prints that none of
// the finding's numbers give: a conclusion resting on a number it does not
// carry.
func sentenceNumbers(f Finding) []string {
	var durs, rates []float64
	for _, ns := range []int64{f.HostNs, f.DeviceNs, f.WallNs} {
		durs = append(durs, float64(ns))
	}
	rates = append(rates, f.GBs, f.WrappedGBs, f.UnwrappedGBs, f.PinnedGBs)
	for k, v := range f.Other {
		if strings.HasSuffix(k, "_ns") {
			durs = append(durs, v)
		} else {
			rates = append(rates, v)
		}
	}
	var p []string
	for _, m := range durationRe.FindAllStringSubmatch(f.Sentence, -1) {
		x, _ := strconv.ParseFloat(m[1], 64)
		x *= map[string]float64{"s": 1e9, "ms": 1e6, "µs": 1e3, "us": 1e3, "ns": 1}[m[2]]
		if !near(x, durs, 0.01, 60) {
			p = append(p, fmt.Sprintf("the sentence prints %s %s, which is none of its numbers", m[1], m[2]))
		}
	}
	for _, m := range rateRe.FindAllStringSubmatch(f.Sentence, -1) {
		x, _ := strconv.ParseFloat(m[1], 64)
		if !near(x, rates, 0.01, 0.006) {
			p = append(p, fmt.Sprintf("the sentence prints %s GB/s, which is none of its numbers", m[1]))
		}
	}
	return p
}

// near reports whether x is within rel (or abs) of one of vs.
func near(x float64, vs []float64, rel, abs float64) bool {
	for _, v := range vs {
		if math.Abs(x-v) <= rel*math.Abs(v)+abs {
			return true
		}
	}
	return false
}

// checkProse reads every sentence and table row of the notebook's text for
// the contradictions a verdict in prose alone can carry: a rate above the
// link printed as a transfer rate, "zero copy" or "no copy" beside a call
// that held the host over a millisecond, "returned at once" beside a call
// that held the host for most of the copy, and a capability the device table
// contradicts.
func checkProse(nb *Notebook, link Link) []string {
	seen := map[string]bool{}
	var problems []string
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			problems = append(problems, s)
		}
	}
	svm, haveSVM := nb.Table["SVM_CAPABILITIES"]
	for _, text := range nb.Prose {
		for _, unit := range proseUnits(text) {
			lower := strings.ToLower(unit.text)
			for _, m := range rateRe.FindAllStringSubmatch(unit.text, -1) {
				x, _ := strconv.ParseFloat(m[1], 64)
				if x > link.GBs*1.02 && !notTransfer(lower) {
					add(fmt.Sprintf("prints %s GB/s as a transfer rate, above the link's physical limit of %.3g GB/s (%s): %q", m[1], link.GBs, link.Source, clip(unit.text)))
				}
			}
			host := unit.host()
			if (strings.Contains(lower, "zero copy") || strings.Contains(lower, "no copy")) && host > BlockedMinimum {
				add(fmt.Sprintf("says zero copy / no copy of a call that held the host %s: %q", Human(host), clip(unit.text)))
			}
			if strings.Contains(lower, "returned at once") && host > 0 {
				if dev := unit.device(); dev > 0 && float64(host) > BlockedShare*float64(dev) {
					add(fmt.Sprintf("says returned at once of a call that held the host %s of a %s copy: %q", Human(host), Human(dev), clip(unit.text)))
				}
			}
			if haveSVM && !sameCapability(svm, "none") && noSVM.MatchString(lower) {
				add(fmt.Sprintf("says the device has no shared virtual memory, but its device table says SVM_CAPABILITIES: %s: %q", svm, clip(unit.text)))
			}
		}
	}
	return problems
}

var noSVM = regexp.MustCompile(`no shared virtual memory|has no svm|no svm support|without svm`)

// notTransfer reports a sentence that itself says its rate is no transfer.
func notTransfer(lower string) bool {
	for _, w := range []string{"not a transfer", "cannot be", "over the link", "device-to-device", "device→device", "kernel", "link's", "links'"} {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return false
}

// proseUnit is a sentence, or a table row with its column headers.
type proseUnit struct {
	text    string
	headers []string
	cells   []string
}

var (
	tagRe   = regexp.MustCompile(`<[^>]*>`)
	rowRe   = regexp.MustCompile(`(?s)<tr[^>]*>(.*?)</tr>`)
	cellRe  = regexp.MustCompile(`(?s)<t([hd])[^>]*>(.*?)</t[hd]>`)
	splitRe = regexp.MustCompile(`\.\s+|\n+`)
	afterRe = regexp.MustCompile(`(?:returned after|held the host(?: for)?) (\d+(?:\.\d+)? (?:s|ms|µs|us|ns))\b`)
	workRe  = regexp.MustCompile(`(?:device worked|ran|the copy took|copy \() ?(\d+(?:\.\d+)? (?:s|ms|µs|us|ns))\b`)
)

// proseUnits splits text into table rows (with the table's headers) and
// sentences.
func proseUnits(text string) []proseUnit {
	var units []proseUnit
	var headers []string
	for _, row := range rowRe.FindAllStringSubmatch(text, -1) {
		var cells []string
		th := false
		for _, c := range cellRe.FindAllStringSubmatch(row[1], -1) {
			th = c[1] == "h"
			cells = append(cells, strings.TrimSpace(tagRe.ReplaceAllString(c[2], "")))
		}
		if th {
			headers = cells
			continue
		}
		units = append(units, proseUnit{text: strings.Join(cells, " | "), headers: headers, cells: cells})
	}
	plain := rowRe.ReplaceAllString(text, "\n")
	plain = tagRe.ReplaceAllString(plain, " ")
	for _, s := range splitRe.Split(plain, -1) {
		if s = strings.TrimSpace(s); s != "" {
			units = append(units, proseUnit{text: s})
		}
	}
	return units
}

// host is the time the unit says the call held the host: a table cell under
// a "host" header, or "returned after D" in a sentence.
func (u proseUnit) host() time.Duration {
	if d, ok := u.column("host"); ok {
		return d
	}
	if m := afterRe.FindStringSubmatch(u.text); m != nil {
		return parseDuration(m[1])
	}
	return 0
}

// device is the copy's time the unit gives: a table cell under a "device"
// header, or "the device worked D" in a sentence.
func (u proseUnit) device() time.Duration {
	if d, ok := u.column("device"); ok {
		return d
	}
	if d, ok := u.column("completion"); ok {
		return d
	}
	if m := workRe.FindStringSubmatch(u.text); m != nil {
		return parseDuration(m[1])
	}
	return 0
}

func (u proseUnit) column(word string) (time.Duration, bool) {
	for i, h := range u.headers {
		if i < len(u.cells) && strings.Contains(strings.ToLower(h), word) && !strings.Contains(strings.ToLower(h), "rate") &&
			!strings.Contains(u.cells[i], "cannot") {
			if d := parseDuration(u.cells[i]); d > 0 {
				return d, true
			}
		}
	}
	return 0, false
}

func parseDuration(s string) time.Duration {
	m := durationRe.FindStringSubmatch(s)
	if m == nil {
		return 0
	}
	x, _ := strconv.ParseFloat(m[1], 64)
	return time.Duration(x * map[string]float64{"s": 1e9, "ms": 1e6, "µs": 1e3, "us": 1e3, "ns": 1}[m[2]])
}
