package doctor

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Loader binaries as far as identify cares: the strings it looks for.
const (
	oclICDBinary   = "\x7fELF\x00OCL_ICD_VENDORS\x00OCL Icd free software\x00OpenCL ICD Loader\x002.3.1\x00"
	khronosBinary  = "\x7fELF\x00OCL_ICD_FILENAMES\x00OCL_ICD_VENDORS\x00khrIcdVendorAdd\x00"
	brokenLibrary  = "broken"
	workingLibrary = "ELF"
)

// world is a fake machine: a library directory, a vendors directory and an
// environment.
type world struct {
	t       *testing.T
	lib     string
	vendors string
	env     map[string]string
	cache   string
	devices []DeviceInfo
	devErr  error
	listed  bool
}

func newWorld(t *testing.T) *world {
	root := t.TempDir()
	w := &world{t: t, lib: filepath.Join(root, "lib"), vendors: filepath.Join(root, "vendors"), env: map[string]string{}}
	if err := os.MkdirAll(w.lib, 0o755); err != nil {
		t.Fatal(err)
	}
	return w
}

func (w *world) library(name, content string) string {
	p := filepath.Join(w.lib, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		w.t.Fatal(err)
	}
	return p
}

func (w *world) icd(file, lib string) {
	if err := os.MkdirAll(w.vendors, 0o755); err != nil {
		w.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(w.vendors, file), []byte(lib+"\n"), 0o644); err != nil {
		w.t.Fatal(err)
	}
}

// load fakes dlopen: names resolve in the library directory; a file whose
// content is "broken" fails as a library with a missing symbol would.
func (w *world) load(name string) error {
	p := name
	if !strings.Contains(name, "/") {
		p = filepath.Join(w.lib, name)
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return errors.New(name + ": cannot open shared object file: No such file or directory")
	}
	if string(data) == brokenLibrary {
		return errors.New(name + ": undefined symbol: clGetPlatformInfo")
	}
	return nil
}

func (w *world) options() Options {
	o := Options{
		VendorsDir:  w.vendors,
		LibDirs:     []string{w.lib},
		Getenv:      func(k string) string { return w.env[k] },
		LinkerCache: func() (string, error) { return w.cache, nil },
		Load:        w.load,
	}
	if w.listed {
		o.ListDevices = func() ([]DeviceInfo, error) { return w.devices, w.devErr }
	}
	return o
}

func (w *world) diagnose() *Report {
	r := Diagnose(w.options())
	w.t.Log("\n" + r.String())
	return r
}

// healthy is a machine with ocl-icd, PoCL and a registered GPU driver.
func healthy(t *testing.T) *world {
	w := newWorld(t)
	w.library("libOpenCL.so.1", oclICDBinary)
	w.library("libpocl.so.2", workingLibrary)
	w.library("libnvidia-opencl.so.1", workingLibrary)
	w.icd("pocl.icd", "libpocl.so.2")
	w.icd("nvidia.icd", "libnvidia-opencl.so.1")
	w.listed = true
	w.devices = []DeviceInfo{
		{Platform: "Portable Computing Language", Name: "cpu-haswell", Type: "CPU", ComputeUnits: 2},
		{Platform: "NVIDIA CUDA", PlatformVersion: "OpenCL 3.0 CUDA 13.0", Name: "NVIDIA H200", Type: "GPU",
			ComputeUnits: 132, GlobalMemBytes: 150e9, MaxAllocBytes: 37.5e9, DriverVersion: "580.159.04"},
	}
	return w
}

// findingWith returns the first finding whose problem contains s.
func findingWith(r *Report, s string) (Finding, bool) {
	for _, f := range r.Findings {
		if strings.Contains(f.Problem, s) {
			return f, true
		}
	}
	return Finding{}, false
}

func mustFind(t *testing.T, r *Report, problem string, fixParts ...string) {
	t.Helper()
	f, ok := findingWith(r, problem)
	if !ok {
		t.Fatalf("no finding about %q; findings: %+v", problem, r.Findings)
	}
	for _, p := range fixParts {
		if !strings.Contains(f.Fix, p) {
			t.Errorf("fix %q lacks %q", f.Fix, p)
		}
	}
	text := r.String()
	if !strings.Contains(text, "problem: "+f.Problem) || !strings.Contains(text, "fix:     "+f.Fix) {
		t.Errorf("report text lacks the problem/fix lines:\n%s", text)
	}
}

func TestHealthy(t *testing.T) {
	r := healthy(t).diagnose()
	if !r.OK() {
		t.Fatalf("healthy machine has findings: %+v", r.Findings)
	}
	if r.Loader.Flavor != "ocl-icd" || r.Loader.Version != "2.3.1" || r.Loader.ReadsFilenames {
		t.Errorf("loader identified as %+v", r.Loader)
	}
	text := r.String()
	for _, want := range []string{"no problems found", "nvidia.icd → libnvidia-opencl.so.1", "loads)", "NVIDIA H200, GPU, 132 compute units, 150 GB memory",
		"NVIDIA: ", "(registered by nvidia.icd)", "ocl-icd 2.3.1; ignores OCL_ICD_FILENAMES"} {
		if !strings.Contains(text, want) {
			t.Errorf("report lacks %q:\n%s", want, text)
		}
	}
}

func TestNoLoader(t *testing.T) {
	w := healthy(t)
	os.Remove(filepath.Join(w.lib, "libOpenCL.so.1"))
	mustFind(t, w.diagnose(), "no OpenCL ICD loader", "ocl-icd-libopencl1")
}

func TestNoICDFiles(t *testing.T) {
	w := healthy(t)
	os.RemoveAll(w.vendors)
	w.listed = false
	mustFind(t, w.diagnose(), "it does not exist", "pocl-opencl-icd")
	os.MkdirAll(w.vendors, 0o755)
	mustFind(t, w.diagnose(), "it has no .icd files")
}

func TestICDNamesMissingOrBrokenLibrary(t *testing.T) {
	w := healthy(t)
	w.icd("stale.icd", "libgone.so.1")
	w.library("libbroken.so", brokenLibrary)
	w.icd("broken.icd", "libbroken.so")
	w.icd("empty.icd", "")
	r := w.diagnose()
	mustFind(t, r, "stale.icd names libgone.so.1, which the linker cannot find", "rm "+filepath.Join(w.vendors, "stale.icd"))
	mustFind(t, r, "broken.icd names libbroken.so, which cannot be loaded: libbroken.so: undefined symbol", "ldd")
	mustFind(t, r, "empty.icd is empty")
	if !strings.Contains(r.String(), "libgone.so.1 (not found)") {
		t.Errorf("ICD list does not mark the missing library")
	}
}

func TestNVIDIAUnregistered(t *testing.T) {
	w := healthy(t)
	os.Remove(filepath.Join(w.vendors, "nvidia.icd"))
	w.devices = w.devices[:1] // the loader sees PoCL only
	r := w.diagnose()
	nvPath := filepath.Join(w.lib, "libnvidia-opencl.so.1")
	// Not in the linker cache: the ICD file needs the full path.
	mustFind(t, r, "NVIDIA's OpenCL library "+nvPath+" is installed but not registered",
		"echo "+nvPath+" > "+filepath.Join(w.vendors, "nvidia.icd"), "gocl doctor --fix", "OCL_ICD_VENDORS")
	mustFind(t, r, "only PoCL, a CPU implementation, is available", "memory bandwidth")
	if !strings.Contains(r.String(), "(NOT registered)") {
		t.Errorf("vendor list does not flag NVIDIA")
	}

	// In the linker cache, with a loader that reads OCL_ICD_FILENAMES: the
	// bare name, and the per-shell variant keeps what the ICD files load.
	w.cache = "2 libs found in cache `/etc/ld.so.cache'\n\tlibnvidia-opencl.so.1 (libc6,x86-64) => " + nvPath + "\n"
	w.library("libOpenCL.so.1", khronosBinary)
	r = w.diagnose()
	mustFind(t, r, "NVIDIA's OpenCL library", "echo libnvidia-opencl.so.1 > ", "export OCL_ICD_FILENAMES=libnvidia-opencl.so.1")
}

func TestNVIDIAThroughFilenames(t *testing.T) {
	w := healthy(t)
	os.Remove(filepath.Join(w.vendors, "nvidia.icd"))
	w.library("libOpenCL.so.1", khronosBinary)
	w.env["OCL_ICD_FILENAMES"] = "libnvidia-opencl.so.1"
	r := w.diagnose()
	if !r.OK() {
		t.Fatalf("NVIDIA registered through OCL_ICD_FILENAMES with the Khronos loader: findings %+v", r.Findings)
	}
	if !strings.Contains(strings.Join(r.Notes, "\n"), "registered only through OCL_ICD_FILENAMES") {
		t.Errorf("no note that the registration lives in the environment: %q", r.Notes)
	}

	// ocl-icd ignores the variable: NVIDIA is then not registered at all.
	w.library("libOpenCL.so.1", oclICDBinary)
	r = w.diagnose()
	mustFind(t, r, "OCL_ICD_FILENAMES is set, but the loader in use (ocl-icd 2.3.1 at", ".icd files")
	mustFind(t, r, "NVIDIA's OpenCL library")
}

func TestPoCLOnlyWithoutDeviceList(t *testing.T) {
	w := healthy(t)
	os.Remove(filepath.Join(w.vendors, "nvidia.icd"))
	os.Remove(filepath.Join(w.lib, "libnvidia-opencl.so.1"))
	w.listed = false
	r := w.diagnose()
	mustFind(t, r, "only PoCL, a CPU implementation, is registered")
	if !strings.Contains(r.String(), "not listed") {
		t.Errorf("report does not say devices were not listed")
	}
}

func TestNoGPUOtherCPU(t *testing.T) {
	w := healthy(t)
	w.devices = []DeviceInfo{{Platform: "Intel(R) CPU Runtime", Name: "Xeon", Type: "CPU"}}
	mustFind(t, w.diagnose(), "no GPU device")
}

func TestEnvPointingAtNothing(t *testing.T) {
	w := healthy(t)
	w.env["OCL_ICD_VENDORS"] = "/nonexistent/vendors"
	w.env["OPENCL_VENDOR_PATH"] = "/nonexistent/path"
	r := w.diagnose()
	mustFind(t, r, "OCL_ICD_VENDORS=/nonexistent/vendors is neither a directory", "unset OCL_ICD_VENDORS")

	w.env["OCL_ICD_VENDORS"] = "missing.icd"
	mustFind(t, w.diagnose(), "OCL_ICD_VENDORS=missing.icd names an ICD file that does not exist")

	delete(w.env, "OCL_ICD_VENDORS")
	mustFind(t, w.diagnose(), "OPENCL_VENDOR_PATH=/nonexistent/path is not a directory")

	delete(w.env, "OPENCL_VENDOR_PATH")
	w.library("libOpenCL.so.1", khronosBinary)
	w.env["OCL_ICD_FILENAMES"] = "libpocl.so.2:libnope.so"
	r = w.diagnose()
	mustFind(t, r, "OCL_ICD_FILENAMES names libnope.so, which the linker cannot find")
	if _, bad := findingWith(r, "names libpocl.so.2"); bad {
		t.Errorf("a valid OCL_ICD_FILENAMES entry was flagged")
	}
}

func TestVendorsDirFromEnv(t *testing.T) {
	w := healthy(t)
	alt := t.TempDir()
	os.WriteFile(filepath.Join(alt, "pocl.icd"), []byte("libpocl.so.2\n"), 0o644)
	w.env["OCL_ICD_VENDORS"] = alt
	r := w.diagnose()
	if r.VendorsDir != alt || len(r.ICDs) != 1 {
		t.Fatalf("OCL_ICD_VENDORS directory not used: dir %s, ICDs %+v", r.VendorsDir, r.ICDs)
	}
	mustFind(t, r, "NVIDIA's OpenCL library") // not registered in alt

	// The Khronos loader needs the trailing slash.
	w.library("libOpenCL.so.1", khronosBinary)
	mustFind(t, w.diagnose(), "has no trailing '/'", "OCL_ICD_VENDORS="+alt+"/")
	w.env["OCL_ICD_VENDORS"] = alt + "/"
	if _, ok := findingWith(w.diagnose(), "trailing"); ok {
		t.Errorf("trailing slash still flagged")
	}
}

func TestDeviceListing(t *testing.T) {
	w := healthy(t)
	w.devErr = errors.New("clGetPlatformIDs: CL_PLATFORM_NOT_FOUND_KHR")
	mustFind(t, w.diagnose(), "listing OpenCL platforms failed: clGetPlatformIDs", "OCL_ICD_DEBUG")
	w.devErr, w.devices = nil, nil
	mustFind(t, w.diagnose(), "the loader found no OpenCL platform")
	w.devices = []DeviceInfo{{Platform: "NVIDIA CUDA"}}
	mustFind(t, w.diagnose(), "report no devices")
}

func TestParseLinkerCache(t *testing.T) {
	out := "4 libs found in cache `/etc/ld.so.cache'\n" +
		"\tlibOpenCL.so.1 (libc6,x86-64) => /usr/local/cuda/lib64/libOpenCL.so.1\n" +
		"\tlibOpenCL.so.1 (libc6) => /usr/lib32/libOpenCL.so.1\n" +
		"\tlibOpenCL.so.1 (libc6,x86-64) => /lib/x86_64-linux-gnu/libOpenCL.so.1\n" +
		"Cache generated by: ldconfig (GNU libc) stable release version 2.36\n"
	got := parseLinkerCache(out)
	if archTag != "x86-64" {
		t.Skip("fixture is for amd64")
	}
	if len(got) != 2 || got[0].path != "/usr/local/cuda/lib64/libOpenCL.so.1" || got[1].name != "libOpenCL.so.1" {
		t.Fatalf("parsed %+v, want the two x86-64 entries in order", got)
	}
}

func TestLoaderOrderPrefersLinkerCache(t *testing.T) {
	w := healthy(t)
	cuda := t.TempDir()
	cudaLoader := filepath.Join(cuda, "libOpenCL.so.1")
	os.WriteFile(cudaLoader, []byte(khronosBinary), 0o644)
	w.cache = "\tlibOpenCL.so.1 (libc6,x86-64) => " + cudaLoader + "\n"
	r := w.diagnose()
	if r.Loader.Path != cudaLoader || r.Loader.Flavor != "Khronos ICD loader" || !r.Loader.ReadsFilenames {
		t.Fatalf("loader %+v, want the cached Khronos loader first", r.Loader)
	}
	if len(r.Loader.Others) != 1 || !strings.Contains(strings.Join(r.Notes, " "), "1 more libOpenCL.so.1") {
		t.Fatalf("the other loader is not reported: %+v %q", r.Loader.Others, r.Notes)
	}
	// LD_LIBRARY_PATH wins over the cache.
	w.env["LD_LIBRARY_PATH"] = w.lib
	if r := w.diagnose(); r.Loader.Path != filepath.Join(w.lib, "libOpenCL.so.1") {
		t.Fatalf("LD_LIBRARY_PATH not preferred: %s", r.Loader.Path)
	}
}

func TestRegisterNVIDIA(t *testing.T) {
	w := healthy(t)
	os.Remove(filepath.Join(w.vendors, "nvidia.icd"))
	nvPath := filepath.Join(w.lib, "libnvidia-opencl.so.1")
	w.cache = "\tlibnvidia-opencl.so.1 (libc6,x86-64) => " + nvPath + "\n"
	wrote, err := RegisterNVIDIAWith(w.options())
	if err != nil || !wrote {
		t.Fatalf("RegisterNVIDIA = %v, %v; want true, nil", wrote, err)
	}
	data, _ := os.ReadFile(filepath.Join(w.vendors, "nvidia.icd"))
	if string(data) != "libnvidia-opencl.so.1\n" {
		t.Fatalf("nvidia.icd holds %q", data)
	}
	if r := w.diagnose(); r.OK() != true {
		t.Fatalf("after RegisterNVIDIA: %+v", r.Findings)
	}
	// Second run: already registered.
	if wrote, err := RegisterNVIDIAWith(w.options()); wrote || err != nil {
		t.Fatalf("second RegisterNVIDIA = %v, %v; want false, nil", wrote, err)
	}
	// Registered under another file name: nothing to do.
	os.Remove(filepath.Join(w.vendors, "nvidia.icd"))
	w.icd("cuda.icd", "/opt/x/libnvidia-opencl.so.1")
	if wrote, err := RegisterNVIDIAWith(w.options()); wrote || err != nil {
		t.Fatalf("RegisterNVIDIA with cuda.icd = %v, %v; want false, nil", wrote, err)
	}
	os.Remove(filepath.Join(w.vendors, "cuda.icd"))
	// A foreign nvidia.icd is not overwritten.
	w.icd("nvidia.icd.bak", "")
	os.WriteFile(filepath.Join(w.vendors, "nvidia.icd"), []byte("libsomething.so\n"), 0o644)
	// (nvidia.icd names another library, so NVIDIA is not registered.)
	if wrote, err := RegisterNVIDIAWith(w.options()); wrote || err == nil || !strings.Contains(err.Error(), "not overwriting") {
		t.Fatalf("RegisterNVIDIA over a foreign nvidia.icd = %v, %v; want an error", wrote, err)
	}
	// No NVIDIA library: nothing to do, into a directory that does not exist.
	os.Remove(nvPath)
	w.cache = ""
	w.vendors = filepath.Join(t.TempDir(), "new")
	if wrote, err := RegisterNVIDIAWith(w.options()); wrote || err != nil {
		t.Fatalf("RegisterNVIDIA without the library = %v, %v; want false, nil", wrote, err)
	}
	if _, err := os.Stat(w.vendors); err == nil {
		t.Fatalf("RegisterNVIDIA created %s without cause", w.vendors)
	}
}

func TestIdentify(t *testing.T) {
	w := newWorld(t)
	p := w.library("x.so", "junk without markers")
	if f, v, fn := identify(p); f != "unknown" || v != "" || fn {
		t.Fatalf("identify(junk) = %q %q %v", f, v, fn)
	}
	if f, _, _ := identify(filepath.Join(w.lib, "missing")); f != "unknown" {
		t.Fatalf("identify(missing) = %q", f)
	}
}

func TestSoStem(t *testing.T) {
	for in, want := range map[string]string{
		"libpocl.so.2.10.0":            "libpocl",
		"/usr/lib/libnvidia-opencl.so": "libnvidia-opencl",
		"libamdocl64.so":               "libamdocl64",
		"weird":                        "weird",
	} {
		if got := soStem(in); got != want {
			t.Errorf("soStem(%q) = %q, want %q", in, got, want)
		}
	}
}
