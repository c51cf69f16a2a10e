package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// sample builds a result whose pinned writes take done seconds each for
// 4e9 bytes, return after ret seconds, and whose 8-byte copies take small.
func sample(source string, done, ret, small float64) map[string]any {
	t := func(r, d float64) map[string]any {
		return map[string]any{"return_s": r, "done_s": d, "device_s": d * 0.99, "gbps": 4e9 / (d * 0.99) / 1e9}
	}
	ts := func(k int, r, d float64) []any {
		var s []any
		for i := 0; i < k; i++ {
			s = append(s, t(r, d))
		}
		return s
	}
	return map[string]any{
		"source": source, "platform": "NVIDIA CUDA", "device": "NVIDIA H200", "driver": "580", "device_version": "OpenCL 3.0 CUDA",
		"n": 500000000, "bytes": 4000000000, "create_copy_host_ptr_s": 3.4,
		"pageable_write": ts(3, 0.5, 0.52), "pinned_write": ts(5, ret, done), "pinned_read": ts(3, ret, done),
		"pageable_read": ts(2, 0.33, 0.34), "small_write": map[string]any{"iters": 10000, "bytes": 8, "per_copy_s": small},
	}
}

func writeJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "r.json")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func load(t *testing.T, v map[string]any) *Result {
	t.Helper()
	r, err := Load(writeJSON(t, v), v["source"].(string))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestChecksFollowTheData(t *testing.T) {
	ref := load(t, sample("clref", 0.072, 20e-6, 10e-6))
	for _, c := range []struct {
		name                string
		done, ret, small    float64
		rate, blocked, loop bool
	}{
		{"all within", 0.0725, 50e-6, 14e-6, true, true, true},
		{"slow copy", 0.080, 50e-6, 14e-6, false, true, true},
		{"blocking call", 0.0725, 150e-6, 14e-6, true, false, true},
		{"slow loop", 0.0725, 50e-6, 16e-6, true, true, false},
	} {
		cells := load(t, sample("cells", c.done, c.ret, c.small))
		cs := Checks(ref, cells, Issue4)
		if len(cs) != 3 {
			t.Fatalf("%s: %d checks", c.name, len(cs))
		}
		got := []bool{cs[0].Pass, cs[1].Pass, cs[2].Pass}
		want := []bool{c.rate, c.blocked, c.loop}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("%s: check %q pass=%v, want %v (measured %g)", c.name, cs[i].Name, got[i], want[i], cs[i].Measured)
			}
		}
		if r := cs[0].Measured; r < 0.072/c.done-1e-9 || r > 0.072/c.done+1e-9 {
			t.Errorf("%s: rate ratio %g, want %g", c.name, r, 0.072/c.done)
		}
	}
}

func TestMedianUsesTheMiddle(t *testing.T) {
	for _, c := range []struct {
		in   []float64
		want float64
	}{{[]float64{3, 1, 2}, 2}, {[]float64{4, 1, 3, 2}, 2.5}, {[]float64{7}, 7}, {[]float64{1e-5, 5, 1e-5}, 1e-5}} {
		if got := median(c.in); got != c.want {
			t.Errorf("median(%v) = %g, want %g", c.in, got, c.want)
		}
	}
}

func TestLoadRefusesIncompleteFiles(t *testing.T) {
	good := sample("clref", 0.072, 20e-6, 10e-6)
	for _, c := range []struct {
		name string
		edit func(m map[string]any)
		want string
	}{
		{"wrong source", func(m map[string]any) { m["source"] = "cells" }, "want \"clref\""},
		{"no pinned writes", func(m map[string]any) { delete(m, "pinned_write") }, "pinned_write"},
		{"no create", func(m map[string]any) { delete(m, "create_copy_host_ptr_s") }, "create_copy_host_ptr_s"},
		{"no small loop", func(m map[string]any) { delete(m, "small_write") }, "small_write"},
		{"bytes not 8n", func(m map[string]any) { m["bytes"] = 12 }, "bytes = 8n"},
		{"zero device time", func(m map[string]any) {
			m["pageable_read"] = []any{map[string]any{"return_s": 0.1, "done_s": 0.2, "device_s": 0}}
		}, "pageable_read[0]"},
	} {
		m := map[string]any{}
		for k, v := range good {
			m[k] = v
		}
		c.edit(m)
		_, err := Load(writeJSON(t, m), "clref")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one naming %q", c.name, err, c.want)
		}
	}
	if _, err := Load(filepath.Join(t.TempDir(), "absent.json"), "clref"); err == nil {
		t.Error("a missing file loaded")
	}
}

func TestCompatibleNeedsOneDeviceAndSize(t *testing.T) {
	ref := load(t, sample("clref", 0.072, 20e-6, 10e-6))
	other := sample("cells", 0.072, 20e-6, 10e-6)
	other["device"] = "pthread-haswell"
	if err := Compatible(ref, load(t, other)); err == nil || !strings.Contains(err.Error(), "same device") {
		t.Errorf("different devices: %v", err)
	}
	other = sample("cells", 0.072, 20e-6, 10e-6)
	other["n"], other["bytes"] = 1000, 8000
	if err := Compatible(ref, load(t, other)); err == nil || !strings.Contains(err.Error(), "same size") {
		t.Errorf("different sizes: %v", err)
	}
	if err := Compatible(ref, load(t, sample("cells", 0.08, 30e-6, 20e-6))); err != nil {
		t.Errorf("same device and size: %v", err)
	}
}

func TestWriteShowsVerdictsAndMachine(t *testing.T) {
	ref := load(t, sample("clref", 0.072, 20e-6, 10e-6))
	cells := load(t, sample("cells", 0.072, 150e-6, 12e-6))
	ref.PinnedCB = []Timing{{Return: 20e-6, Done: 0.0795, Device: 0.072}}
	ref.SmallCB = &Small{Iters: 10000, PerCopy: 21e-6}
	var b bytes.Buffer
	goref := load(t, map[string]any{"source": "goref", "platform": "NVIDIA CUDA", "device": "NVIDIA H200", "n": 500000000,
		"pinned_write": []any{map[string]any{"return_s": 33e-6, "done_s": 0.0801, "device_s": 0.072}},
		"small_write":  map[string]any{"iters": 10000, "per_copy_s": 19e-6}})
	Write(&b, ref, cells, goref, Machine{CPU: "Test CPU 9000", Cores: 16, Kernel: "6.0", LoadAvg: "0.42"}, Issue4, time.Date(2026, 1, 2, 3, 4, 0, 0, time.UTC))
	out := b.String()
	for _, w := range []string{"NVIDIA H200", "driver 580", "Test CPU 9000", "load average 0.42", "2026-01-02 03:04 UTC", "**FAIL**", "| pass |",
		"150.0 us", "3.400 s", "pinned write, non-blocking #5", "79.50 ms", "21.0 us also registering", "| 19.0 us |", "33.0 us / 80.10 ms"} {
		if !strings.Contains(out, w) {
			t.Errorf("report lacks %q:\n%s", w, out)
		}
	}
	// Every table row has as many cells as its header.
	var cols int
	for _, line := range strings.Split(out, "\n") {
		if !strings.HasPrefix(line, "|") {
			cols = 0
			continue
		}
		n := strings.Count(line, "|")
		if cols == 0 {
			cols = n
		} else if n != cols {
			t.Errorf("row has %d bars, header %d: %s", n, cols, line)
		}
	}
}

func TestRunExitStatus(t *testing.T) {
	refPath := writeJSON(t, sample("clref", 0.072, 20e-6, 10e-6))
	cellsPath := writeJSON(t, sample("cells", 0.072, 20e-6, 10e-6))
	var out, errb bytes.Buffer
	if rc := run([]string{refPath, cellsPath}, &out, &errb); rc != 0 || !strings.Contains(out.String(), "### Transfers") {
		t.Errorf("good files: rc %d, stderr %s", rc, errb.String())
	}
	if rc := run([]string{cellsPath, refPath}, &out, &errb); rc != 1 || !strings.Contains(errb.String(), "order") {
		t.Errorf("swapped files: rc %d, stderr %s", rc, errb.String())
	}
	if rc := run([]string{refPath, cellsPath, cellsPath}, &out, &errb); rc != 1 || !strings.Contains(errb.String(), "want \"goref\"") {
		t.Errorf("cells as goref: rc %d, stderr %s", rc, errb.String())
	}
	if rc := run([]string{refPath}, &out, &errb); rc != 2 {
		t.Errorf("one argument: rc %d", rc)
	}
}

func TestFormats(t *testing.T) {
	for _, c := range []struct {
		s    float64
		want string
	}{{3.48, "3.480 s"}, {0.072, "72.00 ms"}, {17e-6, "17.0 us"}, {0.0001, "100.0 us"}} {
		if got := fmtDur(c.s); got != c.want {
			t.Errorf("fmtDur(%g) = %q, want %q", c.s, got, c.want)
		}
	}
	if got := fmtBytes(4e9); got != "4.00 GB" {
		t.Errorf("fmtBytes(4e9) = %q", got)
	}
}
