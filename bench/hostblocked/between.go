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
	run  func()
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
func parseConditions(spec string) ([]condition, error) {
	var conds []condition
	for _, f := range strings.Split(spec, ",") {
		f = strings.TrimSpace(f)
		kind, arg, _ := strings.Cut(f, ":")
		switch kind {
		case "none":
			conds = append(conds, condition{f, func() {}})
		case "spin", "sleep":
			d, err := time.ParseDuration(arg)
			if err != nil || d <= 0 {
				return nil, fmt.Errorf("-between %q: %s needs a duration such as %s:50us", f, kind, kind)
			}
			if kind == "sleep" {
				conds = append(conds, condition{f, func() { time.Sleep(d) }})
				continue
			}
			conds = append(conds, condition{f, func() {
				for t := time.Now(); time.Since(t) < d; {
				}
			}})
		case "churn":
			n, err := parseBytes(arg)
			if err != nil {
				return nil, fmt.Errorf("-between %q: %v", f, err)
			}
			mem := make([]byte, n)
			conds = append(conds, condition{f, func() {
				for i := 0; i < len(mem); i += 64 {
					mem[i]++
					churnSink += mem[i]
				}
			}})
		default:
			return nil, fmt.Errorf("-between %q: want none, spin:D, sleep:D or churn:N", f)
		}
	}
	if len(conds) == 0 {
		return nil, fmt.Errorf("-between is empty: want none, spin:D, sleep:D or churn:N")
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
