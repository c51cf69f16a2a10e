package supervisor

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// DefaultMemoryFraction is the share of the machine's memory an engine may
// use when GOCL_MEMORY_LIMIT is not set.
const DefaultMemoryFraction = 0.75

// MemoryLimit is the engine's memory limit in bytes and where it came from,
// from GOCL_MEMORY_LIMIT ("2GB", "512MiB", "50%", "off") or, by default,
// DefaultMemoryFraction of the machine's memory. Zero means no limit. With a
// GOCL_MEMORY_LIMIT that is not a size, it returns the default and an error
// that says why.
//
// The limit caps the engine's data segment (RLIMIT_DATA: private writable
// memory, so a huge allocation fails at once instead of waking the
// out-of-memory killer) and sets the Go runtime's soft limit
// (debug.SetMemoryLimit). It is never an address-space limit (RLIMIT_AS):
// GPU drivers reserve very large virtual ranges they do not use.
func MemoryLimit() (limit int64, source string, err error) {
	v := strings.TrimSpace(os.Getenv("GOCL_MEMORY_LIMIT"))
	total := machineMemory()
	if v == "" {
		if total == 0 {
			return 0, "none (the machine's memory is unknown)", nil
		}
		return int64(float64(total) * DefaultMemoryFraction), fmt.Sprintf("default: %.0f%% of the machine's %s",
			DefaultMemoryFraction*100, bytesText(total)), nil
	}
	n, err := ParseSize(v, total)
	if err != nil {
		// A bad setting must not keep the kernel from starting: the
		// default applies, and the caller says why.
		def := int64(float64(total) * DefaultMemoryFraction)
		return def, fmt.Sprintf("default: %.0f%% of the machine's %s, because GOCL_MEMORY_LIMIT=%q is not a size",
			DefaultMemoryFraction*100, bytesText(total), v), fmt.Errorf("GOCL_MEMORY_LIMIT=%q: %w", v, err)
	}
	if n == 0 {
		return 0, "none (GOCL_MEMORY_LIMIT=" + v + ")", nil
	}
	return n, "GOCL_MEMORY_LIMIT=" + v, nil
}

// ParseSize reads a size: bytes with an optional unit (KB, MB, GB, TB in
// powers of 1024; KiB... too), a percentage of total, or "off"/"0" for none.
func ParseSize(v string, total int64) (int64, error) {
	s := strings.ToLower(strings.TrimSpace(v))
	if s == "off" || s == "none" || s == "0" {
		return 0, nil
	}
	if p, ok := strings.CutSuffix(s, "%"); ok {
		f, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || f <= 0 || f > 100 {
			return 0, fmt.Errorf("a percentage must be a number in (0, 100]")
		}
		if total == 0 {
			return 0, fmt.Errorf("a percentage needs the machine's memory, which is unknown here; give bytes (e.g. 8GB)")
		}
		return int64(float64(total) * f / 100), nil
	}
	units := []struct {
		suffix string
		mult   int64
	}{{"tib", 1 << 40}, {"gib", 1 << 30}, {"mib", 1 << 20}, {"kib", 1 << 10},
		{"tb", 1 << 40}, {"gb", 1 << 30}, {"mb", 1 << 20}, {"kb", 1 << 10},
		{"t", 1 << 40}, {"g", 1 << 30}, {"m", 1 << 20}, {"k", 1 << 10}, {"b", 1}}
	mult := int64(1)
	for _, u := range units {
		if num, ok := strings.CutSuffix(s, u.suffix); ok {
			s, mult = strings.TrimSpace(num), u.mult
			break
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f < 0 {
		return 0, fmt.Errorf("not a size: use e.g. 8GB, 512MiB, 50%% or off")
	}
	n := int64(f * float64(mult))
	if n < 64<<20 {
		return 0, fmt.Errorf("%s is too small for the engine to start; give at least 64MB", bytesText(n))
	}
	return n, nil
}

// machineMemory is MemTotal of /proc/meminfo in bytes, 0 when unknown.
func machineMemory() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "MemTotal:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// FormatBytes writes n bytes the way users read them: 2 GiB, 512 MiB.
func FormatBytes(n int64) string { return bytesText(n) }
