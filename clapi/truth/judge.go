package truth

import (
	"fmt"
	"time"
)

// Thresholds of the verdicts. A non-blocking call that held the host over
// half the copy did not overlap it; between a tenth and a half it overlapped
// partly. A copy under TinyCopy that held the host under BlockedMinimum is
// too short to tell. A command complete in under a quarter of the fastest
// real copy of as many bytes in the same run copied nothing: it would have
// moved them four times faster than any copy the run measured.
const (
	BlockedMinimum = time.Millisecond
	BlockedShare   = 0.5
	PartialShare   = 0.1
	TinyCopy       = 100 * time.Microsecond
	NoCopyShare    = 0.25
	NoCopyMinBytes = 1 << 20
)

// Transfer is one measured transfer between host and device.
type Transfer struct {
	Subject     string
	NonBlocking bool
	Bytes       int64
	Host        time.Duration // the call held the host
	Device      time.Duration // the device's profiling, END - START; 0 when none
	Wall        time.Duration // from the call to the command's completion, as the host saw it; 0 when not measured
	// Fastest is the fastest real copy of as many bytes measured otherwise
	// in the same run (another method), 0 when there is none: a command
	// that completes in a tenth of it copied nothing.
	Fastest time.Duration
}

// deviceTimeValid reports whether the device's profiling can be the
// command's time: positive, no longer than from the call to completion (a
// command cannot run longer than that), and not faster than the link.
func deviceTimeValid(t Transfer, link Link) (ok bool, why string) {
	switch {
	case t.Device <= 0:
		return false, fmt.Sprintf("gives %s for this command", Human(t.Device))
	case t.Wall > 0 && t.Device > t.Wall+t.Wall/50+10*time.Microsecond:
		return false, fmt.Sprintf("gives %s, longer than the %s from the call to the command's completion", Human(t.Device), Human(t.Wall))
	case link.GBs > 0 && GBs(t.Bytes, t.Device) > link.GBs*1.02:
		return false, fmt.Sprintf("gives %s: for %s that would be over the link's %s", Human(t.Device), bytesText(t.Bytes), rateText(link.GBs))
	}
	return true, ""
}

// JudgeTransfer returns the verdicts on one transfer, decided from its
// numbers alone: whether the device's profiling can time it (if not, the
// host's time from call to completion is used and the finding says so),
// whether anything was copied, the rate (never one above the link), and
// whether the call held the host for the copy.
func JudgeTransfer(t Transfer, link Link) []Finding {
	base := Finding{Subject: t.Subject, Bytes: t.Bytes, HostNs: int64(t.Host), DeviceNs: int64(t.Device), WallNs: int64(t.Wall)}
	var out []Finding
	copyTime, over := t.Device, "device"
	if ok, why := deviceTimeValid(t, link); !ok {
		f := base
		f.Claim = Untimed
		f.Other = map[string]float64{"link_gbs": link.GBs}
		if t.Wall <= 0 {
			f.Sentence = fmt.Sprintf("The device's profiling %s, so it cannot be the command's time, and the host did not time the command's completion: no rate can be given.", why)
			return append(out, f)
		}
		f.Sentence = fmt.Sprintf("The device's profiling %s, so it cannot be the command's time; timed on the host instead: %s from the call to the command's completion.", why, Human(t.Wall))
		out = append(out, f)
		copyTime, over = t.Wall, "wall"
	}
	if t.Bytes >= NoCopyMinBytes && t.Fastest > 0 && t.Host <= BlockedMinimum && t.Wall > 0 &&
		float64(t.Wall) < NoCopyShare*float64(t.Fastest) && float64(copyTime) < NoCopyShare*float64(t.Fastest) {
		f := base
		f.Claim = NoCopy
		f.Sentence = fmt.Sprintf("Nothing was copied (zero copy): the command was complete %s after the call, which returned after %s, while the fastest copy of these %s in this run took %s.",
			Human(t.Wall), Human(t.Host), bytesText(t.Bytes), Human(t.Fastest))
		f.Other = map[string]float64{"fastest_ns": float64(t.Fastest)}
		return append(out, f)
	}
	if copyTime < TinyCopy && t.Host < TinyCopy {
		f := base
		f.Claim = TooShort
		f.Sentence = fmt.Sprintf("Too short to tell whether the call blocked: it held the host %s, and the command took %s.", Human(t.Host), Human(copyTime))
		return append(out, f)
	}
	rate := GBs(t.Bytes, copyTime)
	overText := fmt.Sprintf("the device's %s", Human(copyTime))
	if over == "wall" {
		overText = fmt.Sprintf("the %s from the call to completion", Human(copyTime))
	}
	if rate > link.GBs*1.02 {
		f := base
		f.Claim = OverLink
		f.Sentence = fmt.Sprintf("%s in %s is faster than the link (%s): not a transfer across it.", bytesText(t.Bytes), Human(copyTime), link.Source)
		f.Other = map[string]float64{"link_gbs": link.GBs}
		return append(out, f)
	}
	f := base
	f.Claim, f.GBs, f.Over = Rate, round3(rate), over
	f.Sentence = fmt.Sprintf("Moved %s at %s, over %s.", bytesText(t.Bytes), rateText(rate), overText)
	out = append(out, f)

	v := base
	share := float64(t.Host) / float64(copyTime)
	switch {
	case !t.NonBlocking:
		v.Claim = Blocking
		v.Sentence = fmt.Sprintf("Blocking, as asked: the call returned after %s, once the copy (%s) was done.", Human(t.Host), Human(copyTime))
	case share > BlockedShare:
		v.Claim = Blocked
		v.Sentence = fmt.Sprintf("BLOCKED: the non-blocking call held the host %s, for the whole %s copy: nothing could overlap it.", Human(t.Host), Human(copyTime))
		if share < 0.9 {
			v.Sentence = fmt.Sprintf("BLOCKED: the non-blocking call held the host %s of the %s copy.", Human(t.Host), Human(copyTime))
		}
	case share > PartialShare:
		v.Claim = PartlyBlocked
		v.Sentence = fmt.Sprintf("Partly blocked: the non-blocking call held the host %s, %.0f%% of the %s copy.", Human(t.Host), 100*share, Human(copyTime))
	default:
		v.Claim = ReturnedAtOnce
		v.Sentence = fmt.Sprintf("Returned at once: the non-blocking call held the host %s; the copy took %s, and the host was free for the rest.", Human(t.Host), Human(copyTime))
	}
	return append(out, v)
}

// CopyTime is the time a transfer's findings rest on: the device's time
// when it can be the command's, else the host's from call to completion.
func CopyTime(t Transfer, link Link) time.Duration {
	if ok, _ := deviceTimeValid(t, link); ok {
		return t.Device
	}
	return t.Wall
}

// JudgeWrapped says what wrapping a host slice in a UseHostPtr buffer did
// to it, from three copies of the same bytes by plain EnqueueCopy: from the
// slice while the buffer lived (wrapped; made before any migration), from
// the same slice after the buffer was released (unwrapped), and pinnedGBs,
// the rate of pinned memory in the same run; create is how long the
// buffer's creation held the host.
func JudgeWrapped(create time.Duration, wrapped, unwrapped Transfer, pinnedGBs float64, link Link) Finding {
	wt, ut := CopyTime(wrapped, link), CopyTime(unwrapped, link)
	wr, ur := round3(GBs(wrapped.Bytes, wt)), round3(GBs(unwrapped.Bytes, ut))
	f := Finding{Subject: "what a UseHostPtr buffer does to its slice", Bytes: wrapped.Bytes, HostNs: int64(wrapped.Host),
		WrappedGBs: wr, UnwrappedGBs: ur, PinnedGBs: round3(pinnedGBs),
		Other: map[string]float64{"create_ns": float64(create), "unwrapped_host_ns": float64(unwrapped.Host)}}
	facts := fmt.Sprintf("Creating the buffer over %s held the host %s. While it lived, a plain non-blocking copy from its slice ran at %s and held the host %s; after it was released, the same copy ran at %s and held the host %s (pinned memory: %s in this run).",
		bytesText(wrapped.Bytes), Human(create), rateText(wr), Human(wrapped.Host), rateText(ur), Human(unwrapped.Host), rateText(pinnedGBs))
	switch {
	case pinnedGBs > 0 && wr >= 0.8*pinnedGBs && ur < 0.5*wr && wrapped.Host <= BlockedMinimum:
		f.Claim = PinnedByBuffer
		f.Sentence = facts + " So from the buffer's creation until its release the slice copies as pinned (page-locked) memory does, before any migration: whatever the driver does to the slice, it does when the buffer is created, not in the migration call."
	case wr > 0 && ur > 0 && wr < 1.5*ur && ur < 1.5*wr:
		f.Claim = NotPinned
		f.Sentence = facts + " Wrapping the slice changed nothing measurable in how it copies."
	default:
		f.Claim = NotPinned
		f.Sentence = facts + " The two differ, but not as pinned memory would: no conclusion about page-locking."
	}
	return f
}

// JudgeCapability states a capability as the device reports it: value is
// what dev.Info() shows for the parameter, "" or "none" when it has none.
func JudgeCapability(param, value, meaning string) Finding {
	if value == "" || value == "0" {
		value = "none"
	}
	f := Finding{Claim: Capability, Subject: param, Capability: param, Value: value}
	if value == "none" {
		f.Sentence = fmt.Sprintf("The device reports no %s (%s: none).", meaning, param)
	} else {
		f.Sentence = fmt.Sprintf("The device reports %s (%s: %s).", meaning, param, value)
	}
	return f
}

// bytesText prints a byte count in decimal units ("4.00 GB").
func bytesText(n int64) string {
	f := float64(n)
	switch {
	case f >= 1e9:
		return fmt.Sprintf("%.2f GB", f/1e9)
	case f >= 1e6:
		return fmt.Sprintf("%.1f MB", f/1e6)
	case f >= 1e3:
		return fmt.Sprintf("%.1f kB", f/1e3)
	}
	return fmt.Sprintf("%d B", n)
}
