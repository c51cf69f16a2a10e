package viz

import (
	"fmt"
	"strings"
	"time"
)

// CopyCard describes one finished (or failed) memory transfer, as measured
// by the binding: how long the enqueue call kept the host, and how long the
// copy ran on the device according to the event's profiling counters.
type CopyCard struct {
	Command     string        // the call, e.g. "EnqueueWriteBuffer"
	Direction   string        // "host→device", "device→host" or "device→device"
	HostMemory  string        // "pageable", "pinned", or "" when unknown
	Bytes       int64         // bytes moved
	NonBlocking bool          // the call was asked not to block
	HostBlocked time.Duration // time spent inside the enqueue call
	DeviceTime  time.Duration // event END - START; 0 when profiling is off
	Status      string        // event status, e.g. "complete", or an error name
	Device      string        // device name, e.g. "NVIDIA H200"
	DeviceType  string        // "GPU", "CPU", ...; "" when unknown
	// Stages, when the device reported them: how long the command waited
	// queued (QUEUED to SUBMIT) and submitted (SUBMIT to START).
	Stages     bool
	QueuedWait time.Duration
	SubmitWait time.Duration
	// For a kernel launch: its name and NDRange (Local nil when the
	// driver chose). A card with a Kernel describes the launch, not a copy.
	Kernel string
	Global []int
	Local  []int
	Offset []int
	// LinkGBs is the fastest a transfer between host and device can go
	// (1e9 bytes/s; 0 when unknown): a device time that would beat it
	// cannot be the copy's, and the card says so instead of printing it.
	LinkGBs float64
}

// overLink reports a host-device copy whose device time would make it
// faster than the link: the device's profiling cannot time it.
func overLink(c CopyCard) bool {
	return c.DeviceTime > 0 && c.LinkGBs > 0 && !isCommand(c) && !isDeviceToDevice(c) &&
		float64(c.Bytes)/c.DeviceTime.Seconds()/1e9 > c.LinkGBs*1.02
}

// untimedText explains a device time that cannot be the copy's.
func untimedText(c CopyCard) string {
	return fmt.Sprintf("The device's profiling gives %s, which for %s would be %s, over the link's %.1f GB/s: it cannot be this copy's time. ",
		FormatDuration(c.DeviceTime), FormatBytes(c.Bytes), FormatRate(c.Bytes, c.DeviceTime), c.LinkGBs)
}

// Claim names what the card's verdict asserts, in the terms of
// clapi/truth: "blocking", "blocked", "partly-blocked", "returned-at-once",
// "too-short", "device-untimed", or "" for a command, an empty or failed
// copy.
func Claim(c CopyCard) string {
	if isCommand(c) || c.Bytes <= 0 || c.HostBlocked < 0 || c.DeviceTime < 0 {
		return ""
	}
	if st := strings.TrimPrefix(strings.ToLower(strings.TrimSpace(c.Status)), "cl_"); !okStatuses[st] {
		return ""
	}
	if overLink(c) {
		c.DeviceTime = 0
	}
	switch {
	case !c.NonBlocking:
		return "blocking"
	case c.DeviceTime == 0:
		return "device-untimed"
	}
	share := float64(c.HostBlocked) / float64(c.DeviceTime)
	switch {
	case share > blockedShare && (c.HostBlocked > blockedMinimum || !small(c)):
		return "blocked"
	case share > partialShare && (c.HostBlocked > blockedMinimum || !small(c)):
		return "partly-blocked"
	case small(c):
		return "too-short"
	}
	return "returned-at-once"
}

// noDeviceTime says why a copy has no device time, ending a sentence.
func noDeviceTime(c CopyCard) string {
	if c.Stages || overLink(c) {
		return "The device's profiling cannot time this command: time the call and a wait for it on the host instead."
	}
	return "Device time is unknown: create the queue with profiling on to compare."
}

// UsableDeviceTime is the card's device time, or 0 when it cannot be the
// copy's (over the link).
func UsableDeviceTime(c CopyCard) time.Duration {
	if overLink(c) {
		return 0
	}
	return c.DeviceTime
}

// isCommand reports whether the card is for a command that moves no data
// (a kernel, a marker, a barrier).
func isCommand(c CopyCard) bool {
	cmd := strings.ToLower(c.Command)
	return c.Kernel != "" || strings.Contains(cmd, "marker") || strings.Contains(cmd, "barrier")
}

// waitText explains a wait before the command started, or "" when there
// was none worth a sentence.
func waitText(c CopyCard) string {
	if !c.Stages {
		return ""
	}
	w := c.QueuedWait + c.SubmitWait
	if w < 100*time.Microsecond || (c.DeviceTime > 0 && w < c.DeviceTime/10) {
		return ""
	}
	return fmt.Sprintf(" Before it started it waited %s: %s queued (held by the queue behind earlier commands, their wait lists, or until a flush) and %s submitted (handed to the device, which was still busy or starting it).",
		FormatDuration(w), FormatDuration(c.QueuedWait), FormatDuration(c.SubmitWait))
}

// commandVerdict describes a kernel launch or a marker.
func commandVerdict(c CopyCard) (severity, string) {
	st := strings.TrimPrefix(strings.ToLower(strings.TrimSpace(c.Status)), "cl_")
	name := c.Command
	if c.Kernel != "" {
		name = "Kernel " + c.Kernel
	}
	if !okStatuses[st] {
		return sevBad, fmt.Sprintf("%s did not complete: status %s.", name, c.Status)
	}
	var b strings.Builder
	b.WriteString(name)
	if c.Kernel != "" {
		fmt.Fprintf(&b, " over %s work-items", ndrange(c.Global))
		if c.Local != nil {
			fmt.Fprintf(&b, " in work-groups of %s", ndrange(c.Local))
		} else {
			b.WriteString(" (work-group size chosen by the driver)")
		}
	}
	if c.DeviceTime > 0 {
		fmt.Fprintf(&b, " ran %s on the device", FormatDuration(c.DeviceTime))
	} else {
		b.WriteString(" has no device time (create the queue with cl.Profiling)")
	}
	fmt.Fprintf(&b, "; the call returned after %s.", FormatDuration(c.HostBlocked))
	b.WriteString(waitText(c))
	return sevInfo, b.String()
}

func ndrange(d []int) string {
	parts := make([]string, len(d))
	for i, x := range d {
		parts[i] = fmt.Sprint(x)
	}
	return strings.Join(parts, "×")
}

// Thresholds for the diagnosis. A call that kept the host for more than
// blockedMinimum and more than half the device time has not overlapped
// anything; one between a tenth and a half overlapped only partly. Copies
// below tinyBytes, or that ran less than tinyDevice, are dominated by
// launch overhead, so whether they blocked hardly matters.
const (
	blockedMinimum = time.Millisecond
	blockedShare   = 0.5
	partialShare   = 0.1
	tinyBytes      = 64 * 1000
	tinyDevice     = 100 * time.Microsecond
)

// small reports a copy dominated by launch overhead.
func small(c CopyCard) bool { return c.Bytes < tinyBytes || c.DeviceTime < tinyDevice }

// severity grades a verdict for colouring.
type severity int

const (
	sevInfo severity = iota // nothing to fix, or nothing to judge
	sevGood                 // overlapped as asked
	sevWarn                 // partly overlapped, or unverifiable
	sevBad                  // a non-blocking call that blocked, or a failure
)

// Verdict returns a plain-words diagnosis of the copy: whether the call
// returned at once and left the copy to the device, or kept the host for
// the whole copy, and why, with the fix. For example "This non-blocking copy
// blocked the host for 0.500 s of its 0.500 s: the source is pageable
// memory, which this driver stages synchronously; use cl.NewPinnedHost." or
// "Returned after 40.0 µs; the copy ran 72.0 ms in the background (55.6
// GB/s)."
func Verdict(c CopyCard) string {
	_, text := diagnose(c)
	return text
}

// okStatuses are the event statuses that mean the command has not failed.
var okStatuses = map[string]bool{
	"": true, "complete": true, "completed": true, "queued": true, "submitted": true, "running": true,
}

func diagnose(c CopyCard) (severity, string) {
	if isCommand(c) && c.Bytes >= 0 && c.HostBlocked >= 0 && c.DeviceTime >= 0 {
		return commandVerdict(c)
	}
	if overLink(c) {
		u := c
		u.DeviceTime = 0
		sev, text := diagnoseCopy(u)
		return max(sev, sevWarn), untimedText(c) + text + waitText(c)
	}
	sev, text := diagnoseCopy(c)
	return sev, text + waitText(c)
}

func diagnoseCopy(c CopyCard) (severity, string) {
	st := strings.TrimPrefix(strings.ToLower(strings.TrimSpace(c.Status)), "cl_")
	switch {
	case c.Bytes < 0 || c.HostBlocked < 0 || c.DeviceTime < 0:
		return sevBad, fmt.Sprintf("Invalid measurement (bytes %d, host blocked %v, device time %v): none may be negative; check the event timestamps.",
			c.Bytes, c.HostBlocked, c.DeviceTime)
	case !okStatuses[st]:
		return sevBad, fmt.Sprintf("The copy did not complete: status %s. Its timings mean nothing until that error is fixed.", c.Status)
	case c.Bytes == 0:
		return sevInfo, "Empty copy (0 B): nothing moved."
	}
	hb, dt := FormatDuration(c.HostBlocked), FormatDuration(c.DeviceTime)
	rate := ""
	if c.DeviceTime > 0 {
		rate = " (" + FormatRate(c.Bytes, c.DeviceTime) + ")"
	}
	if !c.NonBlocking {
		if c.DeviceTime == 0 {
			return sevInfo, fmt.Sprintf("Blocking copy, as requested: the call returned after %s, once the copy was done. To overlap copies with work, use a non-blocking copy from pinned memory (cl.NewPinnedHost).", hb)
		}
		return sevInfo, fmt.Sprintf("Blocking copy, as requested: the call returned after %s, once the copy was done; it ran %s on the device%s. To overlap copies with work, use a non-blocking copy from pinned memory (cl.NewPinnedHost).", hb, dt, rate)
	}

	if c.DeviceTime == 0 {
		if c.HostBlocked > blockedMinimum {
			return sevWarn, fmt.Sprintf("Returned after %s, long for a non-blocking call: the driver probably did the copy inside the call%s. %s", hb, pageableHint(c), noDeviceTime(c))
		}
		return sevWarn, fmt.Sprintf("Returned after %s; the device time is unknown, so whether the copy overlapped cannot be judged. %s", hb, noDeviceTime(c))
	}

	share := float64(c.HostBlocked) / float64(c.DeviceTime)
	switch {
	case share > blockedShare && (c.HostBlocked > blockedMinimum || !small(c)):
		of := fmt.Sprintf("for %s of its %s", hb, dt)
		if share > 1.1 {
			of = fmt.Sprintf("for %s, longer than the %s the copy ran on the device", hb, dt)
		}
		return sevBad, "This non-blocking copy blocked the host " + of + blockedCause(c)
	case share > partialShare && (c.HostBlocked > blockedMinimum || !small(c)):
		return sevWarn, fmt.Sprintf("Returned after %s, %s of the copy's %s on the device%s: only partly overlapped%s", hb, percent(share), dt, rate, partialCause(c))
	case small(c):
		return sevInfo, fmt.Sprintf("Small copy (%s): returned after %s, ran %s on the device. At this size the launch overhead dominates; whether the call blocks hardly matters.", FormatBytes(c.Bytes), hb, dt)
	}
	text := fmt.Sprintf("Returned after %s; the copy ran %s in the background%s.", hb, dt, rate)
	if strings.EqualFold(c.HostMemory, "pageable") && !isDeviceToDevice(c) {
		text += " Pageable memory did not block on this driver, but on NVIDIA it would: use cl.NewPinnedHost for overlap everywhere."
	}
	return sevGood, text
}

// hostSide names the host end of the copy: the source of a write, the
// destination of a read.
func hostSide(c CopyCard) string {
	d := strings.ToLower(c.Direction)
	if strings.HasPrefix(d, "device") && strings.HasSuffix(d, "host") ||
		d == "" && strings.Contains(strings.ToLower(c.Command), "read") {
		return "destination"
	}
	return "source"
}

// isDeviceToDevice reports whether no host memory is involved.
func isDeviceToDevice(c CopyCard) bool {
	d := strings.ToLower(c.Direction)
	return strings.Count(d, "device") == 2 ||
		d == "" && strings.Contains(strings.ToLower(c.Command), "copybuffer")
}

// blockedCause explains a non-blocking copy that blocked, ending the
// sentence.
func blockedCause(c CopyCard) string {
	switch {
	case isCPU(c) && !isDeviceToDevice(c):
		return cpuCause
	case isDeviceToDevice(c):
		return ": the driver ran this device-to-device copy synchronously, so nothing overlapped."
	case strings.EqualFold(c.HostMemory, "pageable"):
		return fmt.Sprintf(": the %s is pageable memory, which this driver stages synchronously; use cl.NewPinnedHost.", hostSide(c))
	case strings.EqualFold(c.HostMemory, "pinned"):
		return fmt.Sprintf(" even though the %s is pinned memory: this driver did the copy inside the call, so there is no overlap to be had here. Check that the host buffer is the mapped memory of cl.NewPinnedHost, not a copy of it.", hostSide(c))
	default:
		return fmt.Sprintf(": the kind of host memory is unknown; if the %s is ordinary (pageable) memory, the driver staged it synchronously: use cl.NewPinnedHost.", hostSide(c))
	}
}

// cpuCause explains a blocked copy on a CPU device, ending the sentence:
// there the copy is done by worker threads on the same cores as the caller,
// which is not the staging of pageable memory that NVIDIA's driver does.
const cpuCause = ": the device is this machine's CPU (e.g. PoCL), whose worker threads do the copy on the same cores as the call, " +
	"so on a busy or small machine the call can wait for them. That is not the staging of pageable memory that NVIDIA's driver does; " +
	"run it again to see whether it repeats."

func isCPU(c CopyCard) bool { return strings.EqualFold(c.DeviceType, "CPU") }

// partialCause explains a partly overlapped copy, ending the sentence.
func partialCause(c CopyCard) string {
	if isCPU(c) && !isDeviceToDevice(c) {
		return cpuCause
	}
	if strings.EqualFold(c.HostMemory, "pageable") && !isDeviceToDevice(c) {
		return fmt.Sprintf("; the %s is pageable memory, which the driver stages in part inside the call: use cl.NewPinnedHost.", hostSide(c))
	}
	return "."
}

// pageableHint adds the likely cause when the host memory is pageable or
// unknown.
func pageableHint(c CopyCard) string {
	if isDeviceToDevice(c) || strings.EqualFold(c.HostMemory, "pinned") {
		return ""
	}
	return fmt.Sprintf(" (a pageable %s is staged synchronously by drivers such as NVIDIA's; use cl.NewPinnedHost)", hostSide(c))
}

// severityColour is the accent colour of a verdict.
func severityColour(s severity) string {
	switch s {
	case sevGood:
		return "#2ca02c"
	case sevWarn:
		return "#e08a00"
	case sevBad:
		return "#d62728"
	}
	return "#7f7f7f"
}

// cardTitle is the heading line of a card.
func cardTitle(c CopyCard) string {
	if c.Kernel != "" {
		return "kernel " + c.Kernel
	}
	parts := []string{}
	for _, p := range []string{c.Command, c.Direction} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	if len(parts) == 0 {
		parts = append(parts, "copy")
	}
	return strings.Join(parts, " ")
}

// modeText describes how the call was made and on what memory.
func modeText(c CopyCard) string {
	mode := "blocking"
	if c.NonBlocking {
		mode = "non-blocking"
	}
	mem := c.HostMemory
	if mem == "" {
		mem = "unknown"
	}
	if isDeviceToDevice(c) {
		return mode + " call"
	}
	return mode + " call, " + mem + " host memory"
}

// deviceTimeText is the device time with its rate, or why it is missing.
func deviceTimeText(c CopyCard) string {
	if c.DeviceTime <= 0 && c.Stages {
		return "none: the device's profiling gives 0 for this command"
	}
	if c.DeviceTime <= 0 {
		return "unknown (profiling off)"
	}
	if overLink(c) {
		return FormatDuration(c.DeviceTime) + " (cannot be this copy's: over the link)"
	}
	return FormatDuration(c.DeviceTime) + " · " + FormatRate(c.Bytes, c.DeviceTime)
}

// EventCardText renders the card as plain text: a heading, the figures, two
// bars comparing host-blocked and device time, and the verdict.
func EventCardText(c CopyCard) string {
	var b strings.Builder
	head := cardTitle(c)
	if !isCommand(c) {
		head += " · " + FormatBytes(c.Bytes)
	}
	if c.Device != "" {
		head += " · " + c.Device
	}
	b.WriteString(head + "\n")
	row := func(k, v string) { fmt.Fprintf(&b, "  %-13s %s\n", k, v) }
	if isCommand(c) {
		for _, r := range commandRows(c) {
			row(r[0], r[1])
		}
		_, v := diagnose(c)
		b.WriteString("  verdict: " + v + "\n")
		return b.String()
	}
	row("mode", modeText(c))
	row("device time", deviceTimeText(c))
	for _, r := range stageRows(c) {
		row(r[0], r[1])
	}
	hb := FormatDuration(c.HostBlocked)
	if c.DeviceTime > 0 {
		hb += " (" + percent(float64(c.HostBlocked)/float64(c.DeviceTime)) + " of device time)"
	}
	row("host blocked", hb)
	if c.Status != "" {
		row("status", c.Status)
	}
	if c.DeviceTime > 0 && c.HostBlocked >= 0 {
		const width = 30
		top := max(c.HostBlocked, c.DeviceTime)
		bar := func(d time.Duration) string {
			n := int(float64(width)*float64(d)/float64(top) + 0.5)
			if d > 0 && n == 0 {
				n = 1
			}
			return strings.Repeat("█", n) + strings.Repeat("·", width-n)
		}
		row("host", bar(c.HostBlocked))
		row("device", bar(c.DeviceTime))
	}
	_, v := diagnose(c)
	b.WriteString("  verdict: " + v + "\n")
	return b.String()
}

// EventCardHTML renders the card as a compact HTML block with inline CSS
// only: a heading, the figures, a bar comparing host-blocked with device
// time, and the verdict with a coloured edge (green overlapped, amber
// partly or unknown, red blocked or failed). Colours are inherited or
// half-transparent, so it reads in light and dark themes.
func EventCardHTML(c CopyCard) string {
	sev, verdict := diagnose(c)
	accent := severityColour(sev)
	var b strings.Builder
	b.WriteString(`<div class="gocl-event-card" style="border:1px solid rgba(128,128,128,.45);border-left:4px solid ` + accent +
		`;border-radius:6px;padding:8px 12px;margin:4px 0;max-width:640px;font-family:system-ui,-apple-system,'Segoe UI',sans-serif;font-size:13px;line-height:1.45;color:inherit">`)
	b.WriteString(`<div style="font-weight:600;font-size:14px">` + esc(cardTitle(c)) + ` <span style="font-weight:400;opacity:.75">`)
	if !isCommand(c) {
		b.WriteString("· " + esc(FormatBytes(c.Bytes)))
	}
	if c.Device != "" {
		b.WriteString(" · " + esc(c.Device))
	}
	b.WriteString(`</span></div>`)
	b.WriteString(`<table style="border-collapse:collapse;margin:4px 0;font-variant-numeric:tabular-nums;color:inherit">`)
	row := func(k, v string) {
		b.WriteString(`<tr><td style="padding:1px 14px 1px 0;opacity:.7">` + esc(k) + `</td><td style="padding:1px 0">` + esc(v) + `</td></tr>`)
	}
	if isCommand(c) {
		for _, r := range commandRows(c) {
			row(r[0], r[1])
		}
		b.WriteString(`</table><div style="margin-top:6px">` + esc(verdict) + `</div></div>`)
		return b.String()
	}
	row("mode", modeText(c))
	row("device time", deviceTimeText(c))
	for _, r := range stageRows(c) {
		row(r[0], r[1])
	}
	withBars := c.DeviceTime > 0 && c.HostBlocked >= 0
	if !withBars {
		row("host blocked", FormatDuration(c.HostBlocked))
	}
	if c.Status != "" {
		row("status", c.Status)
	}
	b.WriteString(`</table>`)
	if withBars {
		top := float64(max(c.HostBlocked, c.DeviceTime))
		bar := func(name string, d time.Duration, colour string) {
			pct := 100 * float64(d) / top
			if d > 0 {
				pct = max(pct, 0.5)
			}
			fmt.Fprintf(&b, `<div style="display:flex;align-items:center;gap:8px;margin:2px 0"><span style="width:84px;opacity:.7">%s</span>`+
				`<span style="flex:1;background:rgba(128,128,128,.18);border-radius:3px;height:10px;position:relative">`+
				`<span style="position:absolute;left:0;top:0;bottom:0;width:%.2f%%;background:%s;border-radius:3px"></span></span>`+
				`<span style="width:76px;text-align:right">%s</span></div>`, name, pct, colour, esc(FormatDuration(d)))
		}
		hostColour := "#2ca02c"
		if sev == sevBad || sev == sevWarn {
			hostColour = accent
		}
		bar("host blocked", c.HostBlocked, hostColour)
		bar("device", c.DeviceTime, "#1f77b4")
	}
	b.WriteString(`<div style="margin-top:6px">` + esc(verdict) + `</div></div>`)
	return b.String()
}

// stageRows are the queued and submitted stages, where known.
func stageRows(c CopyCard) [][2]string {
	if !c.Stages {
		return nil
	}
	return [][2]string{{"queued", FormatDuration(c.QueuedWait) + " (QUEUED → SUBMIT)"}, {"submitted", FormatDuration(c.SubmitWait) + " (SUBMIT → START)"}}
}

// commandRows are the figures of a kernel or marker card.
func commandRows(c CopyCard) [][2]string {
	var rows [][2]string
	if c.Kernel != "" {
		rows = append(rows, [2]string{"global size", ndrange(c.Global)})
		local := "chosen by the driver"
		if c.Local != nil {
			local = ndrange(c.Local)
		}
		rows = append(rows, [2]string{"local size", local})
		if c.Offset != nil {
			rows = append(rows, [2]string{"global offset", ndrange(c.Offset)})
		}
	}
	dt := "unknown (profiling off)"
	if c.DeviceTime > 0 {
		dt = FormatDuration(c.DeviceTime)
	}
	rows = append(rows, [2]string{"device time", dt}, [2]string{"call returned", "after " + FormatDuration(c.HostBlocked)})
	rows = append(rows, stageRows(c)...)
	if c.Status != "" {
		rows = append(rows, [2]string{"status", c.Status})
	}
	return rows
}

// percent renders a share as a whole percentage, "<1%" for a sliver.
func percent(share float64) string {
	if share > 0 && share < 0.005 {
		return "<1%"
	}
	return fmt.Sprintf("%.0f%%", 100*share)
}
