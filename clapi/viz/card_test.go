package viz

import (
	"strings"
	"testing"
	"time"
)

// The reference experiment: 4.0e9 bytes to an H200.
const refBytes = 4_000_000_000

func TestVerdict(t *testing.T) {
	cases := []struct {
		name string
		card CopyCard
		want []string // all must appear
		not  []string // none may appear
		sev  severity
	}{
		{"pageable blocked", CopyCard{Direction: "host→device", HostMemory: "pageable", Bytes: refBytes, NonBlocking: true,
			HostBlocked: 497 * time.Millisecond, DeviceTime: 500 * time.Millisecond},
			[]string{"blocked the host for 497 ms of its 500 ms", "source is pageable", "cl.NewPinnedHost"}, nil, sevBad},
		{"first pageable copy, longer than the copy", CopyCard{Direction: "host→device", HostMemory: "pageable", Bytes: refBytes, NonBlocking: true,
			HostBlocked: 1320 * time.Millisecond, DeviceTime: 520 * time.Millisecond},
			[]string{"1.32 s, longer than the 520 ms", "pageable"}, nil, sevBad},
		{"pageable read blocked", CopyCard{Direction: "device→host", HostMemory: "pageable", Bytes: refBytes, NonBlocking: true,
			HostBlocked: 350 * time.Millisecond, DeviceTime: 350 * time.Millisecond},
			[]string{"destination is pageable"}, []string{"source"}, sevBad},
		{"pinned overlapped", CopyCard{Direction: "host→device", HostMemory: "pinned", Bytes: refBytes, NonBlocking: true,
			HostBlocked: 40 * time.Microsecond, DeviceTime: 72 * time.Millisecond},
			[]string{"Returned after 40.0 µs", "72.0 ms in the background", "55.6 GB/s"}, []string{"blocked the host"}, sevGood},
		{"pageable overlapped (PoCL)", CopyCard{Direction: "host→device", HostMemory: "pageable", Bytes: 400_000_000, NonBlocking: true,
			HostBlocked: 84 * time.Microsecond, DeviceTime: 45 * time.Millisecond},
			[]string{"in the background", "on NVIDIA it would"}, nil, sevGood},
		{"pinned still blocked", CopyCard{Direction: "host→device", HostMemory: "pinned", Bytes: refBytes, NonBlocking: true,
			HostBlocked: 80 * time.Millisecond, DeviceTime: 72 * time.Millisecond},
			[]string{"even though the source is pinned"}, []string{"source is pageable"}, sevBad},
		{"pageable blocked on a CPU device", CopyCard{Direction: "host→device", HostMemory: "pageable", Bytes: 16_000_000, NonBlocking: true,
			HostBlocked: 2800 * time.Microsecond, DeviceTime: 3650 * time.Microsecond, DeviceType: "CPU"},
			[]string{"blocked the host", "this machine's CPU", "not the staging"}, []string{"this driver stages"}, sevBad},
		{"pageable blocked on a GPU", CopyCard{Direction: "host→device", HostMemory: "pageable", Bytes: refBytes, NonBlocking: true,
			HostBlocked: 497 * time.Millisecond, DeviceTime: 500 * time.Millisecond, DeviceType: "GPU"},
			[]string{"source is pageable", "stages synchronously"}, []string{"CPU"}, sevBad},
		{"unknown memory blocked", CopyCard{Bytes: refBytes, NonBlocking: true, HostBlocked: 500 * time.Millisecond, DeviceTime: 500 * time.Millisecond},
			[]string{"unknown", "cl.NewPinnedHost"}, nil, sevBad},
		{"partly overlapped", CopyCard{Direction: "host→device", HostMemory: "pageable", Bytes: refBytes, NonBlocking: true,
			HostBlocked: 20 * time.Millisecond, DeviceTime: 72 * time.Millisecond},
			[]string{"28%", "partly overlapped"}, nil, sevWarn},
		{"profiling off, fast", CopyCard{HostMemory: "pinned", Bytes: refBytes, NonBlocking: true, HostBlocked: 30 * time.Microsecond},
			[]string{"device time is unknown", "profiling"}, nil, sevWarn},
		{"profiling off, slow", CopyCard{HostMemory: "pageable", Bytes: refBytes, NonBlocking: true, HostBlocked: 500 * time.Millisecond},
			[]string{"long for a non-blocking call", "profiling"}, nil, sevWarn},
		{"blocking as requested", CopyCard{HostMemory: "pageable", Bytes: refBytes, HostBlocked: 500 * time.Millisecond, DeviceTime: 500 * time.Millisecond},
			[]string{"Blocking copy, as requested", "500 ms"}, []string{"blocked the host"}, sevInfo},
		{"tiny", CopyCard{HostMemory: "pageable", Bytes: 4096, NonBlocking: true, HostBlocked: 12 * time.Microsecond, DeviceTime: 3 * time.Microsecond},
			[]string{"Small copy (4.10 KB)", "overhead"}, nil, sevInfo},
		{"tiny but blocked long", CopyCard{HostMemory: "pageable", Bytes: 4096, NonBlocking: true, HostBlocked: 5 * time.Millisecond, DeviceTime: 4 * time.Millisecond},
			[]string{"blocked the host"}, nil, sevBad},
		{"device to device", CopyCard{Direction: "device→device", Bytes: refBytes, NonBlocking: true, HostBlocked: 30 * time.Millisecond, DeviceTime: 30 * time.Millisecond},
			[]string{"device-to-device"}, []string{"pageable"}, sevBad},
		{"failed", CopyCard{Bytes: refBytes, NonBlocking: true, Status: "CL_OUT_OF_RESOURCES"},
			[]string{"did not complete", "CL_OUT_OF_RESOURCES"}, nil, sevBad},
		{"complete status", CopyCard{Bytes: refBytes, NonBlocking: true, Status: "CL_COMPLETE", HostBlocked: 40 * time.Microsecond, DeviceTime: 72 * time.Millisecond},
			[]string{"in the background"}, nil, sevGood},
		{"negative", CopyCard{Bytes: refBytes, HostBlocked: -1}, []string{"Invalid measurement"}, nil, sevBad},
		{"empty", CopyCard{NonBlocking: true}, []string{"nothing moved"}, nil, sevInfo},
	}
	for _, c := range cases {
		sev, got := diagnose(c.card)
		if v := Verdict(c.card); v != got {
			t.Errorf("%s: Verdict and diagnose disagree", c.name)
		}
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: verdict %q lacks %q", c.name, got, w)
			}
		}
		for _, w := range c.not {
			if strings.Contains(got, w) {
				t.Errorf("%s: verdict %q should not say %q", c.name, got, w)
			}
		}
		if sev != c.sev {
			t.Errorf("%s: severity %d, want %d (verdict %q)", c.name, sev, c.sev, got)
		}
	}
}

func TestEventCardHTML(t *testing.T) {
	c := CopyCard{Command: "EnqueueWriteBuffer", Direction: "host→device", HostMemory: "pageable", Bytes: refBytes,
		NonBlocking: true, HostBlocked: 500 * time.Millisecond, DeviceTime: 250 * time.Millisecond,
		Status: "complete", Device: `<b>H200</b>`}
	got := EventCardHTML(c)
	wellFormed(t, "EventCardHTML", got)
	for _, want := range []string{"EnqueueWriteBuffer", "4.00 GB", "&lt;b&gt;H200", "16.0 GB/s", "non-blocking call, pageable host memory",
		"width:100.00%", "width:50.00%", "#d62728", "blocked the host"} {
		if !strings.Contains(got, want) {
			t.Errorf("card lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "<b>") {
		t.Errorf("device name not escaped")
	}
	// Profiling off: no bars, and the card says why.
	c.DeviceTime = 0
	got = EventCardHTML(c)
	if strings.Contains(got, "width:100.00%") || !strings.Contains(got, "unknown (profiling off)") {
		t.Errorf("card without device time:\n%s", got)
	}
}

func TestEventCardText(t *testing.T) {
	c := CopyCard{Command: "EnqueueReadBuffer", Direction: "device→host", HostMemory: "pinned", Bytes: refBytes,
		NonBlocking: true, HostBlocked: 25 * time.Microsecond, DeviceTime: 72 * time.Millisecond, Device: "NVIDIA H200"}
	got := EventCardText(c)
	lines := strings.Split(strings.TrimSpace(got), "\n")
	if len(lines) != 7 {
		t.Fatalf("want 7 lines, got %d:\n%s", len(lines), got)
	}
	for _, want := range []string{"EnqueueReadBuffer device→host · 4.00 GB · NVIDIA H200", "72.0 ms · 55.6 GB/s", "25.0 µs (<1% of device time)",
		"verdict: Returned after 25.0 µs"} {
		if !strings.Contains(got, want) {
			t.Errorf("text card lacks %q:\n%s", want, got)
		}
	}
	// The host bar is a sliver, the device bar full.
	if !strings.Contains(got, "host          █·") || !strings.Contains(got, "device        "+strings.Repeat("█", 30)) {
		t.Errorf("bars wrong:\n%s", got)
	}
}

// TestCardRefusesRateOverLink: a migration whose profiling gives 454 µs for
// 4 GB (NVIDIA's, issue 21) must not print 8811 GB/s as the copy's rate.
func TestCardRefusesRateOverLink(t *testing.T) {
	c := CopyCard{Command: "clEnqueueMigrateMemObjects", Direction: "host→device", Bytes: 4e9, NonBlocking: true,
		HostBlocked: 74 * time.Millisecond, DeviceTime: 454 * time.Microsecond, LinkGBs: 63, Status: "complete", Stages: true}
	text, html := EventCardText(c), EventCardHTML(c)
	for _, out := range []string{text, html} {
		if strings.Contains(out, "454 µs · ") {
			t.Errorf("the card prints the impossible rate as the copy's:\n%s", out)
		}
		if !strings.Contains(out, "cannot be this copy") {
			t.Errorf("the card does not say the device time cannot be the copy's:\n%s", out)
		}
	}
	if got := Claim(c); got != "device-untimed" {
		t.Errorf("Claim = %q, want device-untimed", got)
	}
	c.LinkGBs = 0 // no link known: the card shows what the device said, as before
	if Claim(c) != "blocked" {
		t.Errorf("without a link, Claim = %q", Claim(c))
	}
}
