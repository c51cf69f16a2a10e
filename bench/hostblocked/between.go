package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// condition is what the host does just before each timed call, the same
// for every way: the question it asks is whether the driver's call takes
// longer when the host did other work since the last one (an interpreter
// runs thousands of instructions between two calls; clref runs none).
type condition struct {
	name string
	run  func(*bench)
	wait string // clapi's wait mode for the condition (wait=NAME), "" for the default
}

// churnSink keeps the churn loop from being optimized away.
var churnSink byte

// parseConditions reads -between: a comma-separated list of
//
//	none          nothing (clref's case)
//	spin:D        a busy loop for D (time.ParseDuration), touching no memory
//	sleep:D       time.Sleep(D): the thread sleeps
//	churn:N       read and write N bytes (N with a K, M or G suffix, powers
//	              of 1024), one cache line at a time: evicts the driver's
//	              code and data from the caches, as an interpreter's work does
//
// and, for issue 21's question (is the call after a 72 ms wait slow because
// of the wait's length, of how the thread waited, or of the big copy?):
//
//	cspin:D       spin in C for D, in one cgo call (the thread never leaves
//	              its CPU; the runtime may retake the P after 10 ms)
//	csleep:D      nanosleep in C for D, in one cgo call (the CPU goes idle)
//	lockspin:D    spin in Go for D with the goroutine locked to its thread
//	wait=NAME     nothing before the call, and clapi's Waits wait as
//	              GOCL_WAIT=NAME (spin, spinlock, spinc, block; needs the
//	              probe build, -tags goclprobe)
func parseConditions(spec string) ([]condition, error) {
	var conds []condition
	for _, f := range strings.Split(spec, ",") {
		f = strings.TrimSpace(f)
		if name, ok := strings.CutPrefix(f, "wait="); ok {
			if !setWaitMode(name) || !setWaitMode("") {
				return nil, fmt.Errorf("-between %q: clapi's wait modes are spin, spinlock, spinc and block, and switching them needs the probe build (-tags goclprobe)", f)
			}
			conds = append(conds, condition{f, func(*bench) {}, name})
			continue
		}
		kind, arg, _ := strings.Cut(f, ":")
		switch kind {
		case "none":
			conds = append(conds, condition{f, func(*bench) {}, ""})
		case "spin", "sleep", "cspin", "csleep", "lockspin":
			d, err := time.ParseDuration(arg)
			if err != nil || d <= 0 {
				return nil, fmt.Errorf("-between %q: %s needs a duration such as %s:50us", f, kind, kind)
			}
			var run func(*bench)
			switch kind {
			case "sleep":
				run = func(b *bench) { b.goSleep(d) }
			case "spin":
				run = func(b *bench) { b.goWait(false, d) }
			case "lockspin":
				run = func(b *bench) { b.goWait(true, d) }
			case "cspin":
				run = func(b *bench) { b.cWait(true, d) }
			case "csleep":
				run = func(b *bench) { b.cWait(false, d) }
			}
			conds = append(conds, condition{f, run, ""})
		case "churn":
			n, err := parseBytes(arg)
			if err != nil {
				return nil, fmt.Errorf("-between %q: %v", f, err)
			}
			mem := make([]byte, n)
			conds = append(conds, condition{f, func(*bench) {
				for i := 0; i < len(mem); i += 64 {
					mem[i]++
					churnSink += mem[i]
				}
			}, ""})
		default:
			return nil, fmt.Errorf("-between %q: want none, spin:D, sleep:D, churn:N, cspin:D, csleep:D, lockspin:D or wait=NAME", f)
		}
	}
	if len(conds) == 0 {
		return nil, fmt.Errorf("-between is empty: want none, spin:D, sleep:D, churn:N, cspin:D, csleep:D, lockspin:D or wait=NAME")
	}
	return conds, nil
}

// parseBytes reads 4096, 64K, 4M or 1G (powers of 1024).
func parseBytes(s string) (int, error) {
	mult := 1
	switch {
	case strings.HasSuffix(s, "K"):
		mult, s = 1<<10, strings.TrimSuffix(s, "K")
	case strings.HasSuffix(s, "M"):
		mult, s = 1<<20, strings.TrimSuffix(s, "M")
	case strings.HasSuffix(s, "G"):
		mult, s = 1<<30, strings.TrimSuffix(s, "G")
	}
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 || n > 1<<40/mult {
		return 0, fmt.Errorf("want a size such as 4M, got %q", s)
	}
	return n * mult, nil
}
