package viz

import (
	"math"
	"testing"
	"time"
)

func TestFormatBytes(t *testing.T) {
	cases := []struct {
		in   int64
		want string
	}{
		{0, "0 B"},
		{999, "999 B"},
		{1000, "1.00 KB"},
		{4096, "4.10 KB"},
		{999_499, "999 KB"},
		{999_500, "1.00 MB"},
		{4_000_000_000, "4.00 GB"},
		{-2048, "-2.05 KB"},
		{math.MaxInt64, "9.22 EB"},
		{math.MinInt64, "-9.22 EB"},
	}
	for _, c := range cases {
		if got := FormatBytes(c.in); got != c.want {
			t.Errorf("FormatBytes(%d) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestFormatDuration(t *testing.T) {
	cases := []struct {
		in   time.Duration
		want string
	}{
		{0, "0 s"},
		{850, "850 ns"},
		{40 * time.Microsecond, "40.0 µs"},
		{999_700 * time.Nanosecond, "1.00 ms"},
		{72 * time.Millisecond, "72.0 ms"},
		{500 * time.Millisecond, "500 ms"},
		{1320 * time.Millisecond, "1.32 s"},
		{123 * time.Second, "123 s"},
		{time.Hour + 2*time.Minute, "1 h 02 min"},
		{-3 * time.Millisecond, "-3.00 ms"},
	}
	for _, c := range cases {
		if got := FormatDuration(c.in); got != c.want {
			t.Errorf("FormatDuration(%v) = %q, want %q", c.in, got, c.want)
		}
	}
	if got := FormatDuration(math.MinInt64); got[0] != '-' {
		t.Errorf("FormatDuration(MinInt64) = %q, want a negative duration", got)
	}
}

func TestFormatRate(t *testing.T) {
	cases := []struct {
		bytes int64
		d     time.Duration
		want  string
	}{
		{4_000_000_000, 72 * time.Millisecond, "55.6 GB/s"},
		{4_000_000_000, 520 * time.Millisecond, "7.69 GB/s"},
		{500, time.Second, "500 B/s"},
		{1, 0, "n/a"},
		{1, -time.Second, "n/a"},
	}
	for _, c := range cases {
		if got := FormatRate(c.bytes, c.d); got != c.want {
			t.Errorf("FormatRate(%d, %v) = %q, want %q", c.bytes, c.d, got, c.want)
		}
	}
}
