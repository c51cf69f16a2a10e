package viz

import (
	"fmt"
	"math"
	"strconv"
	"time"
)

// Decimal unit prefixes, as used for GB/s in every GPU data sheet.
var byteUnits = []string{"B", "KB", "MB", "GB", "TB", "PB", "EB"}

// FormatBytes renders a byte count with decimal units (1 KB = 1000 B, as in
// GB/s) and three significant digits: "512 B", "4.10 KB", "4.00 GB".
func FormatBytes(n int64) string {
	if n < 0 {
		if n == math.MinInt64 {
			return "-" + scaleDecimal(-float64(n), byteUnits, "")
		}
		return "-" + FormatBytes(-n)
	}
	if n < 1000 {
		return strconv.FormatInt(n, 10) + " B"
	}
	return scaleDecimal(float64(n), byteUnits, "")
}

// compactBytes renders a byte count with as few digits as needed, for axis
// ticks: "4 KB", "1.5 MB".
func compactBytes(v float64) string {
	unit := 0
	for math.Abs(v) >= 1000 && unit < len(byteUnits)-1 {
		v /= 1000
		unit++
	}
	return strconv.FormatFloat(roundSig(v, 3), 'f', -1, 64) + " " + byteUnits[unit]
}

// FormatDuration renders a duration with three significant digits and the
// unit that suits it: "850 ns", "40.0 µs", "72.0 ms", "1.32 s"; durations of
// 100 s or more use whole seconds ("123 s") and from an hour on, hours and
// minutes ("1 h 02 min").
func FormatDuration(d time.Duration) string {
	if d < 0 {
		if d == math.MinInt64 {
			d++
		}
		return "-" + FormatDuration(-d)
	}
	if d == 0 {
		return "0 s"
	}
	if d < time.Hour {
		v := float64(d)
		unit := 0
		for v >= 999.5 && unit < len(durationUnits)-1 {
			v /= 1000
			unit++
		}
		if unit == 0 {
			return strconv.FormatInt(int64(d), 10) + " ns"
		}
		return sig3(v) + " " + durationUnits[unit]
	}
	h := d / time.Hour
	m := (d - h*time.Hour + 30*time.Second) / time.Minute
	if m == 60 {
		h, m = h+1, 0
	}
	return fmt.Sprintf("%d h %02d min", h, m)
}

var durationUnits = []string{"ns", "µs", "ms", "s"}

// FormatRate renders bytes moved in d as a rate with decimal units:
// "55.4 GB/s". It returns "n/a" when d is not positive, since no rate can be
// computed.
func FormatRate(bytes int64, d time.Duration) string {
	if d <= 0 {
		return "n/a"
	}
	rate := float64(bytes) / d.Seconds()
	sign := ""
	if rate < 0 {
		sign, rate = "-", -rate
	}
	if rate < 1000 {
		return sign + sig3(rate) + " B/s"
	}
	return sign + scaleDecimal(rate, byteUnits, "/s")
}

// rateGBs returns the rate in GB/s, or NaN if d is not positive.
func rateGBs(bytes int64, d time.Duration) float64 {
	if d <= 0 {
		return math.NaN()
	}
	return float64(bytes) / d.Seconds() / 1e9
}

// scaleDecimal divides v (>= 1000) by 1000 until it fits a unit, and formats
// it with three significant digits.
func scaleDecimal(v float64, units []string, suffix string) string {
	unit := 0
	for v >= 999.5 && unit < len(units)-1 {
		v /= 1000
		unit++
	}
	return sig3(v) + " " + units[unit] + suffix
}

// sig3 formats v (>= 0) with three significant digits, never in exponent
// form: 1.23, 12.3, 123, 1234.
func sig3(v float64) string {
	switch r := roundSig(v, 3); {
	case r >= 100:
		return strconv.FormatFloat(r, 'f', 0, 64)
	case r >= 10:
		return strconv.FormatFloat(r, 'f', 1, 64)
	default:
		return strconv.FormatFloat(r, 'f', 2, 64)
	}
}

// roundSig rounds v to n significant digits.
func roundSig(v float64, n int) float64 {
	if v == 0 || math.IsInf(v, 0) || math.IsNaN(v) {
		return v
	}
	p := math.Pow(10, float64(n-1)-math.Floor(math.Log10(math.Abs(v))))
	return math.Round(v*p) / p
}
