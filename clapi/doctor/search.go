package doctor

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
)

// finder resolves library names the way the dynamic linker does:
// LD_LIBRARY_PATH, then the linker cache, then the usual directories.
type finder struct {
	ldPath   []string
	cache    []cacheEntry
	libDirs  []string
	cacheErr error
}

// cacheEntry is one line of `ldconfig -p`.
type cacheEntry struct{ name, path string }

func newFinder(o Options) *finder {
	f := &finder{libDirs: o.LibDirs}
	for _, d := range strings.Split(o.Getenv("LD_LIBRARY_PATH"), ":") {
		if d != "" {
			f.ldPath = append(f.ldPath, d)
		}
	}
	out, err := o.LinkerCache()
	f.cacheErr = err
	f.cache = parseLinkerCache(out)
	return f
}

// archTag is the ldconfig flag of this process's architecture; entries of
// other architectures (32-bit libraries) cannot be loaded.
var archTag = map[string]string{"amd64": "x86-64", "arm64": "AArch64", "ppc64le": "64bit"}[runtime.GOARCH]

// parseLinkerCache reads `ldconfig -p` output, keeping entries for this
// architecture in cache order (the order the linker tries them).
func parseLinkerCache(out string) []cacheEntry {
	var entries []cacheEntry
	for _, line := range strings.Split(out, "\n") {
		left, path, ok := strings.Cut(line, " => ")
		if !ok {
			continue
		}
		name, flags, _ := strings.Cut(strings.TrimSpace(left), " ")
		if archTag != "" && !strings.Contains(flags, archTag) {
			continue
		}
		entries = append(entries, cacheEntry{name: name, path: strings.TrimSpace(path)})
	}
	return entries
}

// runLdconfig returns `ldconfig -p`, the linker cache.
func runLdconfig() (string, error) {
	for _, p := range []string{"/sbin/ldconfig", "/usr/sbin/ldconfig", "ldconfig"} {
		if p != "ldconfig" {
			if _, err := os.Stat(p); err != nil {
				continue
			}
		}
		out, err := exec.Command(p, "-p").Output()
		if err == nil {
			return string(out), nil
		}
	}
	return "", errors.New("ldconfig -p failed or ldconfig is missing; only the usual library directories were searched")
}

// all returns every path where the library name can be found, in the
// linker's order of preference, without duplicates (by real path).
func (f *finder) all(name string) []string {
	if strings.Contains(name, "/") {
		if fileExists(name) {
			return []string{name}
		}
		return nil
	}
	var out []string
	seen := map[string]bool{}
	add := func(p string) {
		real, err := filepath.EvalSymlinks(p)
		if err != nil || seen[real] {
			return
		}
		seen[real] = true
		out = append(out, p)
	}
	for _, d := range f.ldPath {
		add(filepath.Join(d, name))
	}
	for _, e := range f.cache {
		if e.name == name {
			add(e.path)
		}
	}
	for _, d := range f.libDirs {
		add(filepath.Join(d, name))
	}
	return out
}

// find returns where the linker would find name, or "".
func (f *finder) find(name string) string {
	if all := f.all(name); len(all) > 0 {
		return all[0]
	}
	return ""
}

// inCache reports whether the linker finds name without help from
// LD_LIBRARY_PATH: a bare name in an ICD file then works for every user.
func (f *finder) inCache(name string) bool {
	for _, e := range f.cache {
		if e.name == name && fileExists(e.path) {
			return true
		}
	}
	return false
}

// findStem returns the first library found whose name has the given stem
// (libpocl → libpocl.so.2.10.0), searching the cache and directories.
func (f *finder) findStem(lib string) string {
	if p := f.find(lib); p != "" {
		return p
	}
	stem := soStem(lib)
	for _, e := range f.cache {
		if soStem(e.name) == stem && fileExists(e.path) {
			return e.path
		}
	}
	for _, d := range append(append([]string{}, f.ldPath...), f.libDirs...) {
		matches, _ := filepath.Glob(filepath.Join(d, stem+".so*"))
		for _, m := range matches {
			if fileExists(m) {
				return m
			}
		}
	}
	return ""
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}

func dirExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// Loader describes the ICD loader the dynamic linker picks.
type Loader struct {
	Path     string // as found, e.g. /lib/x86_64-linux-gnu/libOpenCL.so.1; "" if none
	RealPath string // after symlinks
	Flavor   string // "ocl-icd", "Khronos ICD loader" or "unknown"
	Version  string // ocl-icd's version when it can be read, e.g. "2.3.1"
	// ReadsFilenames reports whether the loader honours OCL_ICD_FILENAMES,
	// judged by whether its binary contains the name: the Khronos loader
	// (shipped with CUDA) does; ocl-icd 2.3.1 and 2.3.2 do not.
	ReadsFilenames bool
	LoadErr        string   // why dlopen failed, or ""
	Others         []string // further libOpenCL.so.1 the linker would not pick
}

// versionString matches a bare version such as 2.3.1.
var versionString = regexp.MustCompile(`^[0-9]+\.[0-9]+\.[0-9]+$`)

// identify reads the loader's binary for the strings that tell the
// implementations apart: ocl-icd names itself "OCL Icd free software" and
// keeps its version next to it; only loaders that read OCL_ICD_FILENAMES
// contain that name.
func identify(path string) (flavor, version string, readsFilenames bool) {
	f, err := os.Open(path)
	if err != nil {
		return "unknown", "", false
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, 16<<20))
	if err != nil {
		return "unknown", "", false
	}
	readsFilenames = bytes.Contains(data, []byte("OCL_ICD_FILENAMES"))
	strs := printableStrings(data, 4)
	for i, s := range strs {
		if s == "OCL Icd free software" {
			for _, t := range strs[i+1 : min(i+6, len(strs))] {
				if versionString.MatchString(t) {
					return "ocl-icd", t, readsFilenames
				}
			}
			return "ocl-icd", "", readsFilenames
		}
	}
	if bytes.Contains(data, []byte("khrIcd")) || bytes.Contains(data, []byte("KHR ICD")) || readsFilenames {
		return "Khronos ICD loader", "", readsFilenames
	}
	return "unknown", "", readsFilenames
}

// printableStrings returns the runs of printable ASCII of at least min
// bytes, as strings(1) does.
func printableStrings(data []byte, minLen int) []string {
	var out []string
	start := -1
	for i, b := range data {
		if b >= 0x20 && b < 0x7f {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 && i-start >= minLen {
			out = append(out, string(data[start:i]))
		}
		start = -1
	}
	if start >= 0 && len(data)-start >= minLen {
		out = append(out, string(data[start:]))
	}
	return out
}
