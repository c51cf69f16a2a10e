package doctor

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Report is what Diagnose found. String renders it as plain text.
type Report struct {
	Loader     Loader
	Env        []EnvVar    // the OpenCL-related variables that are set
	VendorsDir string      // the ICD directory the loader reads
	ICDs       []ICD       // the .icd files it reads
	Filenames  []ICD       // libraries named by OCL_ICD_FILENAMES
	Vendors    []VendorLib // known vendor libraries found on disk
	// DevicesListed is false when Options.ListDevices was nil.
	DevicesListed bool
	Devices       []DeviceInfo
	DevicesErr    string
	Notes         []string  // facts worth knowing that need no fix
	Findings      []Finding // problems, each with its fix
}

// EnvVar is one environment variable and its value.
type EnvVar struct{ Name, Value string }

// ICD is one library registration: an .icd file's first line, or an entry
// of OCL_ICD_FILENAMES.
type ICD struct {
	File    string // the .icd file; "" for OCL_ICD_FILENAMES entries
	Library string // the library named
	Path    string // where the linker finds it; "" if nowhere
	LoadErr string // why loading it failed; "" if it loaded
}

// VendorLib is a known vendor's OpenCL library found on disk.
type VendorLib struct {
	Vendor     string
	Library    string // the name an ICD file should hold
	Path       string
	GPU        bool
	Registered bool
	Via        string // the .icd file or variable that registers it
}

// Finding is one misconfiguration with the way to fix it.
type Finding struct{ Problem, Fix string }

// OK reports whether no problem was found.
func (r *Report) OK() bool { return len(r.Findings) == 0 }

func (r *Report) problem(fix, format string, args ...any) {
	r.Findings = append(r.Findings, Finding{Problem: fmt.Sprintf(format, args...), Fix: fix})
}

func (r *Report) note(format string, args ...any) {
	r.Notes = append(r.Notes, fmt.Sprintf(format, args...))
}

// envNames are the variables that change what the loader does.
var envNames = []string{"OCL_ICD_FILENAMES", "OCL_ICD_VENDORS", "OPENCL_VENDOR_PATH", "LD_LIBRARY_PATH"}

// Diagnose examines the OpenCL set-up described by opts (this machine by
// default) and returns what it found, with a Finding for each known
// misconfiguration. It never modifies anything.
func Diagnose(opts Options) *Report {
	o := opts.withDefaults()
	f := newFinder(o)
	r := &Report{VendorsDir: o.VendorsDir}
	for _, n := range envNames {
		if v := o.Getenv(n); v != "" {
			r.Env = append(r.Env, EnvVar{n, v})
		}
	}
	if f.cacheErr != nil {
		r.note("%v", f.cacheErr)
	}
	r.checkLoader(o, f)
	vendorsLib := r.checkVendorsEnv(o, f)
	r.checkFilenames(o, f)
	r.checkICDFiles(o, f, vendorsLib)
	r.checkVendorLibs(o, f, vendorsLib)
	r.checkDevices(o)
	return r
}

func (r *Report) checkLoader(o Options, f *finder) {
	all := f.all("libOpenCL.so.1")
	if len(all) == 0 {
		r.problem("install an ICD loader: apt-get install ocl-icd-libopencl1 (Debian, Ubuntu), dnf install ocl-icd (Fedora), or add the directory holding libOpenCL.so.1 to LD_LIBRARY_PATH",
			"no OpenCL ICD loader: libOpenCL.so.1 was not found in LD_LIBRARY_PATH, the linker cache or the usual library directories, so no OpenCL program can start")
		return
	}
	l := &r.Loader
	l.Path, l.Others = all[0], all[1:]
	l.RealPath, _ = filepath.EvalSymlinks(l.Path)
	l.Flavor, l.Version, l.ReadsFilenames = identify(l.RealPath)
	if err := o.Load(l.Path); err != nil {
		l.LoadErr = err.Error()
		r.problem("reinstall the loader package (ocl-icd-libopencl1 on Debian and Ubuntu), or fix what the error names",
			"the ICD loader %s cannot be loaded: %s", l.Path, l.LoadErr)
	}
	if len(l.Others) > 0 {
		r.note("%d more libOpenCL.so.1 present (%s); the linker picks %s", len(l.Others), strings.Join(l.Others, ", "), l.Path)
	}
}

// checkVendorsEnv applies OCL_ICD_VENDORS and OPENCL_VENDOR_PATH to the ICD
// directory. It returns the library OCL_ICD_VENDORS names directly, if it
// names one.
func (r *Report) checkVendorsEnv(o Options, f *finder) (vendorsLib string) {
	if p := o.Getenv("OPENCL_VENDOR_PATH"); p != "" && o.Getenv("OCL_ICD_VENDORS") == "" {
		if dirExists(p) {
			if r.Loader.Flavor == "ocl-icd" {
				r.VendorsDir = p
			}
		} else {
			r.problem("unset OPENCL_VENDOR_PATH, or point it at a directory of .icd files",
				"OPENCL_VENDOR_PATH=%s is not a directory", p)
		}
	}
	v := o.Getenv("OCL_ICD_VENDORS")
	switch {
	case v == "":
	case dirExists(v):
		r.VendorsDir = v
		if r.Loader.Flavor == "Khronos ICD loader" && !strings.HasSuffix(v, "/") {
			// Seen with the loader CUDA 13 ships: it joins the directory
			// and the file names without a separator and finds nothing.
			r.problem("end it with a slash: export OCL_ICD_VENDORS="+v+"/",
				"OCL_ICD_VENDORS=%s has no trailing '/': the Khronos loader then misses every .icd file in it and finds no platform", v)
		}
	case strings.HasSuffix(v, ".icd"):
		path := v
		if !strings.Contains(v, "/") && fileExists(filepath.Join(r.VendorsDir, v)) {
			path = filepath.Join(r.VendorsDir, v)
		}
		if !fileExists(path) {
			r.problem("unset OCL_ICD_VENDORS, or point it at an existing .icd file or a directory of them",
				"OCL_ICD_VENDORS=%s names an ICD file that does not exist, so the loader finds no OpenCL implementation", v)
		} else {
			r.VendorsDir = path // a single file: checkICDFiles reads just it
		}
	default:
		if f.find(v) == "" {
			r.problem("unset OCL_ICD_VENDORS, or set it to a directory of .icd files",
				"OCL_ICD_VENDORS=%s is neither a directory, an .icd file nor a library the linker can find", v)
		} else {
			r.note("OCL_ICD_VENDORS names the library %s: ocl-icd loads only that implementation", v)
			vendorsLib = v
		}
	}
	return vendorsLib
}

func (r *Report) checkFilenames(o Options, f *finder) {
	v := o.Getenv("OCL_ICD_FILENAMES")
	if v == "" {
		return
	}
	for _, name := range strings.Split(v, ":") {
		if name == "" {
			continue
		}
		icd := ICD{Library: name, Path: f.find(name)}
		if icd.Path == "" {
			r.problem("give its full path, add its directory to LD_LIBRARY_PATH, or drop it from OCL_ICD_FILENAMES",
				"OCL_ICD_FILENAMES names %s, which the linker cannot find", name)
		} else if err := o.Load(name); err != nil {
			icd.LoadErr = err.Error()
			r.problem("install what the error names, or drop it from OCL_ICD_FILENAMES",
				"OCL_ICD_FILENAMES names %s, which cannot be loaded: %s", name, icd.LoadErr)
		}
		r.Filenames = append(r.Filenames, icd)
	}
	if r.Loader.Path != "" && !r.Loader.ReadsFilenames {
		r.problem(fmt.Sprintf("register the libraries with .icd files in %s instead (as root; `gocl doctor --fix` does it for NVIDIA), or without root put .icd files in a directory of your own and export OCL_ICD_VENDORS=that directory, ending in '/'", r.VendorsDir),
			"OCL_ICD_FILENAMES is set, but the loader in use (%s) does not read it, so it changes nothing", r.Loader.describe())
	}
}

// describe names the loader for messages: "ocl-icd 2.3.1 at /lib/...".
func (l Loader) describe() string {
	name := l.Flavor
	if l.Version != "" {
		name += " " + l.Version
	}
	return name + " at " + l.Path
}

// icdFiles lists the .icd files the loader reads from dir (or dir itself
// when OCL_ICD_VENDORS names one file).
func icdFiles(dir string) ([]string, error) {
	if fileExists(dir) {
		return []string{dir}, nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var files []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".icd") && !e.IsDir() {
			files = append(files, filepath.Join(dir, e.Name()))
		}
	}
	sort.Strings(files)
	return files, nil
}

func (r *Report) checkICDFiles(o Options, f *finder, vendorsLib string) {
	files, err := icdFiles(r.VendorsDir)
	for _, file := range files {
		icd := ICD{File: file}
		data, rerr := os.ReadFile(file)
		if rerr != nil {
			r.problem("make it readable by all: chmod a+r "+file, "cannot read %s: %v", file, rerr)
			r.ICDs = append(r.ICDs, icd)
			continue
		}
		icd.Library, _, _ = strings.Cut(strings.TrimSpace(string(data)), "\n")
		icd.Library = strings.TrimSpace(icd.Library)
		switch {
		case icd.Library == "":
			r.problem("delete it, or write the implementation's library name into it", "%s is empty: it names no library", file)
		default:
			icd.Path = f.find(icd.Library)
			if icd.Path == "" {
				r.problem(fmt.Sprintf("install the implementation it belongs to, or delete the stale file: rm %s", file),
					"%s names %s, which the linker cannot find, so that platform is missing", file, icd.Library)
			} else if lerr := o.Load(icd.Library); lerr != nil {
				icd.LoadErr = lerr.Error()
				r.problem(fmt.Sprintf("install the libraries it depends on (ldd %s lists the missing ones)", icd.Path),
					"%s names %s, which cannot be loaded: %s", file, icd.Library, icd.LoadErr)
			}
		}
		r.ICDs = append(r.ICDs, icd)
	}
	if len(files) > 0 || vendorsLib != "" || (len(r.Filenames) > 0 && r.Loader.ReadsFilenames) {
		return
	}
	why := "it has no .icd files"
	if err != nil {
		why = "it does not exist"
	}
	r.problem("install an OpenCL implementation: your GPU vendor's OpenCL package, or apt-get install pocl-opencl-icd for the CPU",
		"no ICD files: the loader reads %s and %s, so it knows no OpenCL implementation", r.VendorsDir, why)
}

// registeredBy returns what registers a library with the given stem, or "".
func (r *Report) registeredBy(stem, vendorsLib string) string {
	for _, icd := range r.ICDs {
		if icd.Library != "" && soStem(icd.Library) == stem {
			return filepath.Base(icd.File)
		}
	}
	if r.Loader.ReadsFilenames {
		for _, icd := range r.Filenames {
			if soStem(icd.Library) == stem {
				return "OCL_ICD_FILENAMES"
			}
		}
	}
	if vendorsLib != "" && soStem(vendorsLib) == stem {
		return "OCL_ICD_VENDORS"
	}
	return ""
}

func (r *Report) checkVendorLibs(o Options, f *finder, vendorsLib string) {
	for _, v := range knownVendors {
		path := f.findStem(v.lib)
		if path == "" {
			continue
		}
		vl := VendorLib{Vendor: v.name, Library: v.lib, Path: path, GPU: v.gpu}
		vl.Via = r.registeredBy(soStem(v.lib), vendorsLib)
		vl.Registered = vl.Via != ""
		r.Vendors = append(r.Vendors, vl)
		icdName := v.lib
		if !f.inCache(v.lib) {
			icdName = path // the linker needs the path for every user
		}
		switch {
		case !vl.Registered:
			fix := fmt.Sprintf("as root: echo %s > %s", icdName, filepath.Join(o.VendorsDir, v.icd))
			if v.name == "NVIDIA" {
				fix += " (or run `gocl doctor --fix` as root)"
			}
			if r.Loader.ReadsFilenames {
				fix += "; for this shell only: export OCL_ICD_FILENAMES=" + strings.Join(append(filenames(r.Filenames), icdName), ":")
			} else {
				fix += fmt.Sprintf("; without root: copy the .icd files of %s to a directory of your own, add %s there holding %s, and export OCL_ICD_VENDORS=that directory, ending in '/'", r.VendorsDir, v.icd, icdName)
			}
			r.problem(fix, "%s's OpenCL library %s is installed but not registered: no ICD file names it, so OpenCL programs do not see %s devices", v.name, path, v.name)
		case vl.Via == "OCL_ICD_FILENAMES" || vl.Via == "OCL_ICD_VENDORS":
			r.note("%s is registered only through %s in this environment; to register it for every shell, as root: echo %s > %s", v.name, vl.Via, icdName, filepath.Join(o.VendorsDir, v.icd))
		}
	}
}

func filenames(icds []ICD) []string {
	var out []string
	for _, i := range icds {
		out = append(out, i.Library)
	}
	return out
}

// pocl names PoCL's platform.
func isPoCL(platform string) bool {
	p := strings.ToLower(platform)
	return strings.Contains(p, "portable computing language") || strings.Contains(p, "pocl")
}

// cpuOnlyMeaning says what timings mean without a GPU.
const cpuOnlyMeaning = "expect CPU timings: 'device' copies move host memory at memory bandwidth, and non-blocking copies return in microseconds even from pageable memory, so the stall NVIDIA's driver causes with pageable memory cannot be seen"

func (r *Report) checkDevices(o Options) {
	if o.ListDevices == nil {
		// Judge from the registrations alone.
		gpu, pocl, any := false, false, false
		for _, v := range r.Vendors {
			if v.Registered {
				any = true
				gpu = gpu || v.GPU
				pocl = pocl || v.Library == "libpocl.so.2"
			}
		}
		if any && pocl && !gpu {
			r.problem("if this machine has a GPU, register its OpenCL driver (see above); otherwise "+cpuOnlyMeaning,
				"only PoCL, a CPU implementation, is registered: there is no GPU platform")
		}
		return
	}
	r.DevicesListed = true
	devs, err := o.ListDevices()
	r.Devices = devs
	if err != nil {
		r.DevicesErr = err.Error()
		r.problem("fix the problems above first; with ocl-icd, OCL_ICD_DEBUG=15 clinfo shows why each implementation was rejected",
			"listing OpenCL platforms failed: %v", err)
		return
	}
	if len(devs) == 0 {
		r.problem("fix the problems above; with ocl-icd, OCL_ICD_DEBUG=15 clinfo shows why each implementation was rejected",
			"the loader found no OpenCL platform: the registered implementations failed to start or none is registered")
		return
	}
	gpu, allPoCL, named := false, true, 0
	for _, d := range devs {
		if d.Name == "" {
			continue
		}
		named++
		gpu = gpu || strings.Contains(strings.ToUpper(d.Type), "GPU")
		allPoCL = allPoCL && isPoCL(d.Platform)
	}
	switch {
	case named == 0:
		r.problem("check the driver: the platform is there but reports no device (for NVIDIA, nvidia-smi must list the GPU)",
			"the OpenCL platforms report no devices")
	case !gpu && allPoCL:
		r.problem("if this machine has a GPU, register its OpenCL driver (see above); otherwise "+cpuOnlyMeaning,
			"only PoCL, a CPU implementation, is available: there is no GPU platform")
	case !gpu:
		r.problem("if this machine has a GPU, install and register its OpenCL driver; otherwise "+cpuOnlyMeaning,
			"no GPU device: every OpenCL device is a CPU or accelerator")
	}
}
