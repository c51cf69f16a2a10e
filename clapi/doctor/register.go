package doctor

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// RegisterNVIDIA writes nvidia.icd into vendorsDir ("" means
// DefaultVendorsDir) when NVIDIA's libnvidia-opencl.so.1 is installed and
// no ICD file there names it, so that every OpenCL program sees NVIDIA
// GPUs. It reports whether it wrote the file; it does nothing when the
// library is absent or already registered. Writing needs root for
// /etc/OpenCL/vendors.
func RegisterNVIDIA(vendorsDir string) (bool, error) {
	return RegisterNVIDIAWith(Options{VendorsDir: vendorsDir})
}

// RegisterNVIDIAWith is [RegisterNVIDIA] with the search set by opts (as
// for [Diagnose]), for tests and unusual layouts.
func RegisterNVIDIAWith(opts Options) (bool, error) {
	o := opts.withDefaults()
	f := newFinder(o)
	const lib = "libnvidia-opencl.so.1"
	path := f.findStem(lib)
	if path == "" {
		return false, nil
	}
	files, _ := icdFiles(o.VendorsDir)
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			continue
		}
		first, _, _ := strings.Cut(strings.TrimSpace(string(data)), "\n")
		if soStem(strings.TrimSpace(first)) == soStem(lib) {
			return false, nil
		}
	}
	name := lib
	if !f.inCache(lib) {
		name = path // not in the linker cache: the loader needs the path
	}
	target := filepath.Join(o.VendorsDir, "nvidia.icd")
	if data, err := os.ReadFile(target); err == nil {
		return false, fmt.Errorf("%s exists and names %q, not NVIDIA's OpenCL library; not overwriting it: check it, then remove it and run again", target, strings.TrimSpace(string(data)))
	}
	if err := os.MkdirAll(o.VendorsDir, 0o755); err != nil {
		return false, fmt.Errorf("creating %s: %w (run as root)", o.VendorsDir, err)
	}
	if err := os.WriteFile(target, []byte(name+"\n"), 0o644); err != nil {
		return false, fmt.Errorf("writing %s: %w (run as root)", target, err)
	}
	return true, nil
}
