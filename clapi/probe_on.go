//go:build goclprobe

package clapi

import "time"

// probeTimes are the last call's probe times (ns, Unix). One caller at a
// time: a benchmark's.
var probeTimes [probeCount]int64

func probe(i int) { probeTimes[i] = time.Now().UnixNano() }

const probesOn = true

func lastProbes() [probeCount]int64 { return probeTimes }
