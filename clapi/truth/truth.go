// Package truth makes a notebook's conclusions checkable: each verdict is a
// [Finding] that carries the sentence a notebook prints together with the
// numbers it rests on (bytes, how long the call held the host, the device's
// own time, the time from the call to the command's completion, the rate it
// prints, the capability it names), and [CheckNotebook] reads a saved
// notebook's findings, its device table and its prose, and reports every
// conclusion that its own numbers contradict.
//
// A notebook emits findings as a display whose MIME bundle holds the
// sentences as Markdown and the findings as JSON under [MIME]
// ([Report.MIMEBundle]); gocl's event cards carry one too. The verdict
// functions ([JudgeTransfer], [JudgeWrapped], [JudgeCapability]) decide from
// the numbers only, never from a table of rules per vendor.
package truth

import (
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/seed43a1e1ab/gocl/kernel/cellio"
)

// MIME is the MIME type under which a display carries its findings as JSON.
const MIME = "application/vnd.gocl.findings+json"

// Claim is what a finding's sentence asserts.
type Claim string

// The claims a verdict can make.
const (
	Blocking       Claim = "blocking"         // a blocking call, as asked: it returned once the copy was done
	Blocked        Claim = "blocked"          // a non-blocking call that held the host for most of the copy
	PartlyBlocked  Claim = "partly-blocked"   // a non-blocking call that held the host for a tenth to a half of it
	ReturnedAtOnce Claim = "returned-at-once" // a non-blocking call that left the copy to the device
	NoCopy         Claim = "no-copy"          // nothing was copied (zero copy)
	TooShort       Claim = "too-short"        // too short to tell whether the call blocked
	Rate           Claim = "transfer-rate"    // the rate of a transfer between host and device
	Untimed        Claim = "device-untimed"   // the device's profiling cannot time this command
	OverLink       Claim = "over-link"        // bytes over a time that beat the link: not a transfer across it
	Capability     Claim = "capability"       // the device has (Value) or lacks ("none") a capability
	PinnedByBuffer Claim = "pinned-by-buffer" // a UseHostPtr buffer made its slice copy like pinned memory
	NotPinned      Claim = "not-pinned"       // wrapping the slice changed nothing measurable
)

// Finding is one conclusion: the sentence and the numbers it rests on.
// Times are nanoseconds; zero means not measured.
type Finding struct {
	Claim    Claim   `json:"claim"`
	Subject  string  `json:"subject,omitempty"` // what was measured, e.g. "pinned, non-blocking, host→device"
	Sentence string  `json:"sentence"`
	Bytes    int64   `json:"bytes,omitempty"`
	HostNs   int64   `json:"host_ns,omitempty"`   // the call held the host
	DeviceNs int64   `json:"device_ns,omitempty"` // the device's profiling, END - START
	WallNs   int64   `json:"wall_ns,omitempty"`   // from the call to the command's completion, host clock
	GBs      float64 `json:"gbs,omitempty"`       // the rate the sentence prints, 1e9 bytes/s
	Over     string  `json:"over,omitempty"`      // the time the rate is over: "device" or "wall"
	// For a capability: the device parameter and the value claimed ("none"
	// when the sentence says the device lacks it).
	Capability string `json:"capability,omitempty"`
	Value      string `json:"value,omitempty"`
	// For PinnedByBuffer and NotPinned: the rates of the plain copy from the
	// slice while the buffer lived and after it was released, and pinned
	// memory's in the same run.
	WrappedGBs   float64 `json:"wrapped_gbs,omitempty"`
	UnwrappedGBs float64 `json:"unwrapped_gbs,omitempty"`
	PinnedGBs    float64 `json:"pinned_gbs,omitempty"`
	// Other figures the sentence prints, by name ("create_ns",
	// "fastest_ns", "link_gbs"): times in nanoseconds, rates in GB/s.
	Other map[string]float64 `json:"other,omitempty"`
}

// Link is the fastest a transfer between host and device can go, and where
// that figure comes from.
type Link struct {
	GBs    float64 `json:"gbs"`
	Source string  `json:"source"`
}

// Report is a notebook's findings about one device, shown as one display.
type Report struct {
	Device   string    `json:"device"`
	Link     Link      `json:"link"`
	Findings []Finding `json:"findings"`
}

// Add appends findings and returns them, so a verdict can be printed where
// it is made.
func (r *Report) Add(fs ...Finding) []Finding {
	r.Findings = append(r.Findings, fs...)
	return fs
}

// Markdown is the findings' sentences as a bulleted list, each led by its
// subject.
func (r *Report) Markdown() string {
	var b strings.Builder
	for _, f := range r.Findings {
		if f.Subject != "" {
			fmt.Fprintf(&b, "- **%s:** %s\n", f.Subject, f.Sentence)
		} else {
			fmt.Fprintf(&b, "- %s\n", f.Sentence)
		}
	}
	return b.String()
}

// String is the findings as plain text.
func (r *Report) String() string { return r.Markdown() }

// MIMEBundle shows the report: its sentences as Markdown and text, and the
// findings as JSON under [MIME], for [CheckNotebook].
func (r *Report) MIMEBundle() cellio.Bundle {
	md := r.Markdown()
	return cellio.Bundle{"text/markdown": md, "text/plain": md, MIME: r.json()}
}

// json is the report as plain JSON values, as a display bundle holds them.
func (r *Report) json() map[string]any {
	fs := make([]any, len(r.Findings))
	for i, f := range r.Findings {
		fs[i] = f.json()
	}
	return map[string]any{
		"device":   r.Device,
		"link":     map[string]any{"gbs": r.Link.GBs, "source": r.Link.Source},
		"findings": fs,
	}
}

func (f Finding) json() map[string]any {
	m := map[string]any{"claim": string(f.Claim), "sentence": f.Sentence}
	put := func(k string, v any, ok bool) {
		if ok {
			m[k] = v
		}
	}
	put("subject", f.Subject, f.Subject != "")
	put("bytes", f.Bytes, f.Bytes != 0)
	put("host_ns", f.HostNs, f.HostNs != 0)
	put("device_ns", f.DeviceNs, f.DeviceNs != 0)
	put("wall_ns", f.WallNs, f.WallNs != 0)
	put("gbs", f.GBs, f.GBs != 0)
	put("over", f.Over, f.Over != "")
	put("capability", f.Capability, f.Capability != "")
	put("value", f.Value, f.Value != "")
	put("wrapped_gbs", f.WrappedGBs, f.WrappedGBs != 0)
	put("unwrapped_gbs", f.UnwrappedGBs, f.UnwrappedGBs != 0)
	put("pinned_gbs", f.PinnedGBs, f.PinnedGBs != 0)
	if len(f.Other) > 0 {
		o := map[string]any{}
		for k, v := range f.Other {
			o[k] = v
		}
		m["other"] = o
	}
	return m
}

// Stated bounds, used when the device does not report its link.
const (
	// GPUBoundGBs is PCIe Gen5 x16 (32 GT/s, 128b/130b, 16 lanes): 63.0
	// GB/s, the fastest PCIe link in service.
	GPUBoundGBs = 32 * 16 * 128.0 / 130 / 8
	// HostBoundGBs bounds a device that is the host's own memory (a CPU
	// device, or one with unified memory): no link, and no host's memory
	// copies 1000 GB/s.
	HostBoundGBs = 1000
)

// PCIeLink is the link a PCI device reports in sysfs: speed as the kernel
// writes it ("32.0 GT/s PCIe") and width in lanes. Gen1 and Gen2 use 8b/10b
// encoding, later generations 128b/130b.
func PCIeLink(speed string, width int, where string) (Link, bool) {
	f := strings.Fields(speed)
	if len(f) == 0 || width <= 0 {
		return Link{}, false
	}
	gts, err := strconv.ParseFloat(f[0], 64)
	if err != nil || gts <= 0 {
		return Link{}, false
	}
	enc := 128.0 / 130
	if gts <= 5 {
		enc = 0.8
	}
	gbs := gts * float64(width) * enc / 8
	return Link{GBs: gbs, Source: fmt.Sprintf("PCIe %s x%d (%s): %.1f GB/s", f[0]+" GT/s", width, where, gbs)}, true
}

// DeviceLink is the link of a device: for a device in host memory (CPU, or
// unified memory) the stated host bound; else the PCIe link that sysfs
// reports for the PCI address (domain, bus, device, function from
// CL_DEVICE_PCI_BUS_INFO_KHR, nil when the driver does not answer); else
// the stated GPU bound.
func DeviceLink(devType string, unified bool, pci []uint64) Link {
	if unified || strings.EqualFold(devType, "CPU") {
		return Link{GBs: HostBoundGBs, Source: fmt.Sprintf("stated bound: the device uses the host's memory, no link; no host's memory copies %d GB/s", HostBoundGBs)}
	}
	if len(pci) == 4 {
		addr := fmt.Sprintf("%04x:%02x:%02x.%x", pci[0], pci[1], pci[2], pci[3])
		dir := "/sys/bus/pci/devices/" + addr + "/"
		speed, err1 := os.ReadFile(dir + "current_link_speed")
		width, err2 := os.ReadFile(dir + "current_link_width")
		if err1 == nil && err2 == nil {
			w, _ := strconv.Atoi(strings.TrimSpace(string(width)))
			if l, ok := PCIeLink(strings.TrimSpace(string(speed)), w, "sysfs, "+addr); ok {
				return l
			}
		}
	}
	return Link{GBs: GPUBoundGBs, Source: fmt.Sprintf("stated bound: the driver reports no link; PCIe Gen5 x16, the fastest PCIe link in service, carries %.1f GB/s", GPUBoundGBs)}
}

// GBs is bytes over d in 1e9 bytes per second, 0 when d is not positive.
func GBs(bytes int64, d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	return float64(bytes) / d.Seconds() / 1e9
}

// Human prints a duration with sensible units ("0.518 s", "72.10 ms",
// "25.5 µs").
func Human(d time.Duration) string {
	switch {
	case d >= time.Second:
		return fmt.Sprintf("%.3f s", d.Seconds())
	case d >= time.Millisecond:
		return fmt.Sprintf("%.2f ms", d.Seconds()*1e3)
	}
	return fmt.Sprintf("%.1f µs", d.Seconds()*1e6)
}

// rateText prints a rate with three significant figures at most.
func rateText(gbs float64) string {
	switch {
	case gbs >= 100:
		return fmt.Sprintf("%.0f GB/s", gbs)
	case gbs >= 10:
		return fmt.Sprintf("%.1f GB/s", gbs)
	}
	return fmt.Sprintf("%.2f GB/s", gbs)
}

// round3 keeps a rate's JSON figure to what the sentence prints.
func round3(x float64) float64 {
	if x == 0 {
		return 0
	}
	p := math.Pow(10, 2-math.Floor(math.Log10(math.Abs(x))))
	return math.Round(x*p) / p
}
