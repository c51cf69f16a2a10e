//go:build goclprobe

package clapi

import "time"

// probeTimes are the last call's probe times (ns, Unix). One caller at a
// time: a benchmark's.
var probeTimes [probeCount]int64

func probe(i int) { probeTimes[i] = time.Now().UnixNano() }

const probesOn = true

func lastProbes() [probeCount]int64 { return probeTimes }

// SetWaitMode makes every later Wait wait as GOCL_WAIT=name would ("block",
// "spin", "spinlock", "spinc"), or by device type for "", and reports
// whether it knew the name. For benchmarks that compare the ways in one
// process; not safe while another goroutine waits.
func SetWaitMode(name string) bool {
	if name == "" {
		waitModeOverride = -1
		return true
	}
	m, ok := waitModeNames[name]
	if ok {
		waitModeOverride = m
	}
	return ok
}
