// Package doctor diagnoses a machine's OpenCL set-up for `gocl doctor`:
// which ICD loader (libOpenCL.so.1) the dynamic linker picks and which
// environment variables it reads, the ICD files in /etc/OpenCL/vendors and
// whether the libraries they name load, vendor libraries installed but not
// registered (above all NVIDIA's libnvidia-opencl.so.1, common in
// containers), and the platforms and devices the binding sees. Every known
// misconfiguration becomes a Finding: a problem and its fix.
//
// The package does not import the OpenCL binding: the integrator passes
// Options.ListDevices, and tests pass fake directories, environment, linker
// cache and loader.
package doctor

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// DefaultVendorsDir is where ICD loaders look for .icd files.
const DefaultVendorsDir = "/etc/OpenCL/vendors"

// DeviceInfo describes one OpenCL device as the binding reports it. A
// platform without devices may be reported as one DeviceInfo with an empty
// Name.
type DeviceInfo struct {
	Platform        string // platform name, e.g. "NVIDIA CUDA", "Portable Computing Language"
	PlatformVendor  string
	PlatformVersion string // e.g. "OpenCL 3.0 CUDA 13.0.85"
	Name            string // device name, e.g. "NVIDIA H200"
	Type            string // "GPU", "CPU", "accelerator", ...
	Version         string // device OpenCL version
	DriverVersion   string
	ComputeUnits    int
	ClockMHz        int
	GlobalMemBytes  int64
	MaxAllocBytes   int64
}

// Options says where to look. The zero value examines this machine, except
// for platforms and devices, which need ListDevices.
type Options struct {
	// VendorsDir is the ICD directory; "" means DefaultVendorsDir.
	VendorsDir string
	// LibDirs are scanned for the loader and for vendor libraries, in
	// addition to LD_LIBRARY_PATH and the linker cache; nil means
	// DefaultLibDirs().
	LibDirs []string
	// Getenv reads the environment; nil means os.Getenv.
	Getenv func(string) string
	// LinkerCache returns the output of `ldconfig -p`; nil runs ldconfig.
	// Return "", nil to ignore the cache.
	LinkerCache func() (string, error)
	// Load tries to load a shared library by name or path as the ICD
	// loader would (dlopen) and returns why it failed; nil uses dlopen
	// where cgo is available.
	Load func(name string) error
	// ListDevices lists the platforms' devices through the OpenCL
	// binding; nil skips that part of the report.
	ListDevices func() ([]DeviceInfo, error)
}

// vendor is an OpenCL implementation gocl knows by its library.
type vendor struct {
	name string // who makes it
	lib  string // the library an ICD file names
	icd  string // the ICD file its package installs
	gpu  bool   // whether it drives GPUs
}

// knownVendors are the implementations looked for on disk.
var knownVendors = []vendor{
	{"NVIDIA", "libnvidia-opencl.so.1", "nvidia.icd", true},
	{"AMD ROCm", "libamdocl64.so", "amdocl64.icd", true},
	{"Intel GPU (compute-runtime)", "libigdrcl.so", "intel.icd", true},
	{"Intel CPU runtime", "libintelocl.so", "intel64.icd", false},
	{"Mesa Rusticl", "libRusticlOpenCL.so.1", "rusticl.icd", true},
	{"Mesa Clover", "libMesaOpenCL.so.1", "mesa.icd", true},
	{"PoCL", "libpocl.so.2", "pocl.icd", false},
}

// DefaultLibDirs lists the directories where distributions, CUDA, ROCm and
// container runtimes put OpenCL libraries.
func DefaultLibDirs() []string {
	triplet := map[string]string{"amd64": "x86_64-linux-gnu", "arm64": "aarch64-linux-gnu", "ppc64le": "powerpc64le-linux-gnu"}[runtime.GOARCH]
	cudaTarget := map[string]string{"amd64": "x86_64-linux", "arm64": "sbsa-linux"}[runtime.GOARCH]
	dirs := []string{"/usr/local/lib", "/usr/local/lib64"}
	if triplet != "" {
		dirs = append(dirs, "/usr/lib/"+triplet, "/lib/"+triplet, "/usr/lib/"+triplet+"/nvidia/current")
	}
	dirs = append(dirs, "/usr/lib64", "/lib64", "/usr/lib", "/lib",
		"/usr/local/nvidia/lib64", "/usr/local/nvidia/lib", "/usr/local/cuda/lib64")
	if cudaTarget != "" {
		dirs = append(dirs, "/usr/local/cuda/targets/"+cudaTarget+"/lib")
	}
	return append(dirs, "/opt/rocm/lib", "/opt/rocm/opencl/lib", "/usr/lib/wsl/lib")
}

// withDefaults fills in the zero fields of o.
func (o Options) withDefaults() Options {
	if o.VendorsDir == "" {
		o.VendorsDir = DefaultVendorsDir
	}
	if o.LibDirs == nil {
		o.LibDirs = DefaultLibDirs()
	}
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	if o.LinkerCache == nil {
		o.LinkerCache = runLdconfig
	}
	if o.Load == nil {
		o.Load = dlopenCheck
	}
	return o
}

// soStem is a library's name up to ".so": libpocl.so.2.10.0 → libpocl.
// ICD files and vendor packages disagree on version suffixes, so libraries
// are matched by stem.
func soStem(name string) string {
	base := filepath.Base(name)
	if i := strings.Index(base, ".so"); i > 0 {
		return base[:i]
	}
	return base
}
