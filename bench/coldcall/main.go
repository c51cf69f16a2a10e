// Command coldcall measures how much slower a call is when it is the first
// thing a thread does after a wait (bench/RESULTS.md, "the first call after
// a wait"): a reflect.Value.Call (what yaegi makes of a cell's call of a
// compiled function) and a cgo call, each timed right after the thread
// slept, spun on the clock, or spun in cgo calls for a copy's length, and
// then again at once. It also times the clock itself, so that a slow
// clocksource cannot pass for a cold call.
//
//	go build -o bench/transfer/bin/coldcall ./bench/coldcall
//	bench/transfer/bin/coldcall [-wait 7ms] [-rounds 200]
package main

/*
static long long nop(long long x) { return x + 1; }
*/
import "C"

import (
	"flag"
	"fmt"
	"os"
	"reflect"
	"runtime"
	"sort"
	"strings"
	"time"
)

// waits are the ways a thread spends the time before the timed call.
var waits = []struct {
	name string
	run  func(time.Duration)
}{
	{"slept (time.Sleep: the thread parks)", func(d time.Duration) { time.Sleep(d) }},
	{"spun on the clock", func(d time.Duration) {
		for end := time.Now().Add(d); time.Now().Before(end); {
		}
	}},
	{"spun in cgo calls (as a polling wait does)", func(d time.Duration) {
		for end := time.Now().Add(d); time.Now().Before(end); {
			C.nop(1)
		}
	}},
}

func median(v []time.Duration) time.Duration {
	sort.Slice(v, func(i, j int) bool { return v[i] < v[j] })
	return v[len(v)/2]
}

func main() {
	wait := flag.Duration("wait", 7*time.Millisecond, "how long the thread waits before the timed call (a 4e8-byte copy takes 7 ms on an H200)")
	rounds := flag.Int("rounds", 200, "timed calls per row")
	flag.Parse()
	runtime.LockOSThread()
	cs, _ := os.ReadFile("/sys/devices/system/clocksource/clocksource0/current_clocksource")
	fn := reflect.ValueOf(func(a, b any, c ...int) any { return nil })
	args := []reflect.Value{reflect.ValueOf(any(1)), reflect.ValueOf(any(2)), reflect.ValueOf(3)}
	calls := []struct {
		name string
		run  func()
	}{
		{"reflect.Value.Call, 3 arguments, variadic", func() { fn.Call(args) }},
		{"cgo call of an empty C function", func() { C.nop(1) }},
	}
	fmt.Printf("### The first call after a wait: %s, clocksource %s, %d rounds, waits of %v\n\n", runtime.Version(), strings.TrimSpace(string(cs)), *rounds, *wait)
	var clock []time.Duration
	for i := 0; i < *rounds; i++ {
		t := time.Now()
		for k := 0; k < 1000; k++ {
			_ = time.Now()
		}
		clock = append(clock, time.Since(t)/1000)
	}
	fmt.Printf("time.Now itself: %v (median of %d runs of 1000)\n\n", median(clock), *rounds)
	fmt.Println("| call | after the thread | first call (median) | the same again at once (median) | first / again |")
	fmt.Println("|---|---|---|---|---|")
	for _, c := range calls {
		for _, w := range waits {
			var first, again []time.Duration
			for i := 0; i < *rounds; i++ {
				w.run(*wait)
				t := time.Now()
				c.run()
				first = append(first, time.Since(t))
				t = time.Now()
				c.run()
				again = append(again, time.Since(t))
			}
			f, a := median(first), median(again)
			fmt.Printf("| %s | %s | %v | %v | %.1fx |\n", c.name, w.name, f, a, float64(f)/float64(a))
		}
	}
}
