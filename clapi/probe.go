package clapi

// Probe points on cl.EnqueueCopy's way to the driver and back to the
// caller (host to device and device to host): where its own work goes
// when it runs cold after a wait (issue 21). They cost nothing unless
// clapi is built with -tags goclprobe (probe_on.go), which
// bench/hostblocked then reports.
const (
	probeEntry   = iota // EnqueueCopy entered
	probeParsed         // options parsed
	probeHost           // the host side found (hostOf)
	probeChecked        // handles taken, spans checked
	probeState          // the event's state made, its memory held and pinned
	probeEvent          // after the driver call: the *Event made and recorded
	probeCount
)

// probeNames names the probe points, in order, for a report.
var probeNames = [probeCount]string{"entered", "options parsed", "host side found", "handles and spans checked", "event state made and memory held", "event made (after the driver call)"}

// CopyProbes returns the names of EnqueueCopy's probe points and the times
// (Unix ns) the last call passed them, and whether clapi was built with
// them (-tags goclprobe; else the times are zero). With the event's
// HostStart and HostReturn they split the call's own work into steps.
// For benchmarks only: one caller at a time.
func CopyProbes() (names []string, times []int64, ok bool) {
	t := lastProbes()
	return probeNames[:], t[:], probesOn
}
