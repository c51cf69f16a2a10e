package truth

import (
	"strings"
	"testing"
	"time"
)

var h200 = Link{GBs: 63.0, Source: "PCIe 32.0 GT/s x16"}

func claims(fs []Finding) string {
	var c []string
	for _, f := range fs {
		c = append(c, string(f.Claim))
	}
	return strings.Join(c, ",")
}

// TestJudgeTransfer drives the verdicts with numbers measured on the H200
// (bench/gpu/results/2026-12-02-uhpprobe) and on PoCL, and checks every
// finding passes the truth check.
func TestJudgeTransfer(t *testing.T) {
	ms := time.Millisecond
	us := time.Microsecond
	cases := []struct {
		name string
		t    Transfer
		link Link
		want string
	}{
		{"UseHostPtr migration, NVIDIA: profiling gives 0", Transfer{NonBlocking: true, Bytes: 4e9, Host: 72682 * us, Device: 0, Wall: 72706 * us, Fastest: 72 * ms}, h200, "device-untimed,transfer-rate,blocked"},
		{"UseHostPtr migration, NVIDIA: profiling gives 454 µs", Transfer{Bytes: 4e9, Host: 74470 * us, Device: 454 * us, Wall: 74480 * us, Fastest: 72 * ms}, h200, "device-untimed,transfer-rate,blocking"},
		{"SVM map, NVIDIA: profiling gives an earlier command's time", Transfer{Bytes: 4e9, Host: 98 * us, Device: 544 * ms, Wall: 112 * us, Fastest: 72 * ms}, h200, "device-untimed,no-copy"},
		{"pinned write, non-blocking", Transfer{NonBlocking: true, Bytes: 4e9, Host: 25 * us, Device: 72090 * us, Wall: 72150 * us}, h200, "transfer-rate,returned-at-once"},
		{"pageable write, non-blocking", Transfer{NonBlocking: true, Bytes: 4e9, Host: 578 * ms, Device: 586 * ms, Wall: 587 * ms}, h200, "transfer-rate,blocked"},
		{"PoCL sub-millisecond copy that held the host", Transfer{NonBlocking: true, Bytes: 8e6, Host: 733 * us, Device: 689 * us, Wall: 798 * us}, Link{GBs: HostBoundGBs}, "transfer-rate,blocked"},
		{"PoCL UseHostPtr migration", Transfer{Bytes: 8e6, Host: 18 * us, Device: 300, Wall: 27 * us, Fastest: 666 * us}, Link{GBs: HostBoundGBs}, "device-untimed,no-copy"},
		{"tiny", Transfer{NonBlocking: true, Bytes: 4096, Host: 20 * us, Device: 5 * us, Wall: 30 * us}, h200, "too-short"},
	}
	for _, c := range cases {
		fs := JudgeTransfer(c.t, c.link)
		if got := claims(fs); got != c.want {
			t.Errorf("%s: claims %s, want %s", c.name, got, c.want)
		}
		for _, f := range fs {
			if p := checkFinding(f, c.link, nil); len(p) > 0 {
				t.Errorf("%s: %q fails the check: %v", c.name, f.Sentence, p)
			}
			if f.GBs > c.link.GBs {
				t.Errorf("%s: rate %g over the link", c.name, f.GBs)
			}
		}
	}
}

// TestJudgeWrapped uses the H200's numbers: the wrapped slice copied at
// 55.5 GB/s and returned at once, unwrapped 6.44 GB/s.
func TestJudgeWrapped(t *testing.T) {
	ms, us := time.Millisecond, time.Microsecond
	w := Transfer{NonBlocking: true, Bytes: 4e9, Host: 46 * us, Device: 72104 * us, Wall: 72173 * us}
	u := Transfer{NonBlocking: true, Bytes: 4e9, Host: 613 * ms, Device: 621 * ms, Wall: 622 * ms}
	f := JudgeWrapped(129*ms, w, u, 55.5, h200)
	if f.Claim != PinnedByBuffer {
		t.Errorf("claim %s: %s", f.Claim, f.Sentence)
	}
	if p := checkFinding(f, h200, nil); len(p) > 0 {
		t.Errorf("%q fails the check: %v", f.Sentence, p)
	}
	f = JudgeWrapped(80*us, Transfer{Bytes: 8e6, Host: 25 * us, Device: 1580 * us, Wall: 1600 * us}, Transfer{Bytes: 8e6, Host: 11 * us, Device: 1330 * us, Wall: 1400 * us}, 5.76, Link{GBs: HostBoundGBs})
	if f.Claim != NotPinned {
		t.Errorf("PoCL: claim %s: %s", f.Claim, f.Sentence)
	}
}

// TestCheckFindingContradictions feeds findings that contradict their own
// numbers: each must be reported.
func TestCheckFindingContradictions(t *testing.T) {
	table := map[string]string{"SVM_CAPABILITIES": "COARSE_GRAIN_BUFFER"}
	bad := []struct {
		f    Finding
		want string
	}{
		{Finding{Claim: Rate, Sentence: "454.0 µs (8811.50 GB/s)", Bytes: 4e9, DeviceNs: 454000, GBs: 8811.5, Over: "device"}, "above the link's physical limit"},
		{Finding{Claim: NoCopy, Sentence: "no copy made (zero copy)", Bytes: 4e9, HostNs: 74550000, WallNs: 74560000}, "zero copy"},
		{Finding{Claim: ReturnedAtOnce, Sentence: "returned at once", Bytes: 4e9, HostNs: 500e6, DeviceNs: 520e6}, "returned at once"},
		{Finding{Claim: Capability, Sentence: "NVIDIA's OpenCL has no shared virtual memory", Capability: "SVM_CAPABILITIES", Value: "none"}, "device table says"},
		{Finding{Claim: Rate, Sentence: "moved at 55 GB/s", Bytes: 4e9}, "number is absent"},
		{Finding{Claim: Blocking, Sentence: "the call returned after 72.1 ms", HostNs: 25000}, "none of its numbers"},
	}
	for _, b := range bad {
		p := strings.Join(checkFinding(b.f, h200, table), "\n")
		if !strings.Contains(p, b.want) {
			t.Errorf("%q: problems %q lack %q", b.f.Sentence, p, b.want)
		}
	}
}

func TestPCIeLink(t *testing.T) {
	l, ok := PCIeLink("32.0 GT/s PCIe", 16, "sysfs")
	if !ok || l.GBs < 63 || l.GBs > 63.1 {
		t.Errorf("Gen5 x16: %+v", l)
	}
	l, _ = PCIeLink("5.0 GT/s PCIe", 8, "sysfs")
	if l.GBs != 4 {
		t.Errorf("Gen2 x8: %+v", l)
	}
}
