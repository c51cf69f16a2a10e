package clapi

/*
#cgo LDFLAGS: -lOpenCL
#include "gocl_cl.h"
*/
import "C"

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"github.com/seed43a1e1ab/gocl/clapi/viz"
	"github.com/seed43a1e1ab/gocl/internal/faultguard"
)

// Platform is an OpenCL platform (an installed driver, such as PoCL or
// NVIDIA's). Its fields are read once, when [Platforms] runs.
type Platform struct {
	id         C.cl_platform_id
	Index      int    // position in the loader's list
	Name       string // CL_PLATFORM_NAME
	Vendor     string // CL_PLATFORM_VENDOR
	Version    string // CL_PLATFORM_VERSION, e.g. "OpenCL 3.0 PoCL 3.1"
	Profile    string // FULL_PROFILE or EMBEDDED_PROFILE
	Extensions string // space-separated extension names
	major      int
	minor      int
}

// PlatformList is the result of [Platforms]; in a cell it shows as a table of
// every platform and device.
type PlatformList []*Platform

// Device is an OpenCL device. Its fields are read once, when the device is
// listed.
type Device struct {
	id              C.cl_device_id
	Platform        *Platform
	Index           int           // position within its platform
	Name            string        // CL_DEVICE_NAME
	Vendor          string        // CL_DEVICE_VENDOR
	DriverVersion   string        // CL_DRIVER_VERSION
	Version         string        // CL_DEVICE_VERSION, e.g. "OpenCL 3.0 ..."
	CVersion        string        // CL_DEVICE_OPENCL_C_VERSION
	Type            string        // "GPU", "CPU", "accelerator", ...
	GlobalMemBytes  int64         // CL_DEVICE_GLOBAL_MEM_SIZE
	MaxAllocBytes   int64         // CL_DEVICE_MAX_MEM_ALLOC_SIZE
	ComputeUnits    int           // CL_DEVICE_MAX_COMPUTE_UNITS
	MaxWorkGroup    int           // CL_DEVICE_MAX_WORK_GROUP_SIZE
	UnifiedMemory   bool          // CL_DEVICE_HOST_UNIFIED_MEMORY: device and host share memory
	TimerResolution time.Duration // CL_DEVICE_PROFILING_TIMER_RESOLUTION
	BaseAlignBytes  int           // CL_DEVICE_MEM_BASE_ADDR_ALIGN in bytes: sub-buffer offsets must be multiples of it
	SVM             Flags         // CL_DEVICE_SVM_CAPABILITIES; Value 0 when the device has no shared virtual memory
	Extensions      string        // space-separated extension names
	// NVAttributes is true when the device has cl_nv_device_attribute_query;
	// only then are GPUOverlapNV and AsyncEngineCountNV meaningful.
	NVAttributes       bool
	GPUOverlapNV       bool // CL_DEVICE_GPU_OVERLAP_NV: copies can overlap kernels
	AsyncEngineCountNV int  // CL_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT_NV: copy engines
	major, minor       int
}

// Platforms lists the installed OpenCL platforms. It returns an empty list
// when the loader finds none (run `gocl doctor` to learn why).
func Platforms() PlatformList {
	var n C.cl_uint
	rc := C.clGetPlatformIDs(0, nil, &n)
	if rc == -1001 || (rc == C.CL_SUCCESS && n == 0) {
		return PlatformList{}
	}
	if rc != C.CL_SUCCESS {
		fail("clGetPlatformIDs", int(rc), "listing platforms")
	}
	ids := make([]C.cl_platform_id, n)
	if rc := C.clGetPlatformIDs(n, &ids[0], nil); rc != C.CL_SUCCESS {
		fail("clGetPlatformIDs", int(rc), "listing platforms")
	}
	out := make(PlatformList, len(ids))
	for i, id := range ids {
		p := &Platform{id: id, Index: i}
		p.Name = platformString(id, C.CL_PLATFORM_NAME)
		p.Vendor = platformString(id, C.CL_PLATFORM_VENDOR)
		p.Version = platformString(id, C.CL_PLATFORM_VERSION)
		p.Profile = platformString(id, C.CL_PLATFORM_PROFILE)
		p.Extensions = platformString(id, C.CL_PLATFORM_EXTENSIONS)
		p.major, p.minor = parseVersion(p.Version)
		out[i] = p
	}
	return out
}

// DeviceList is what [Platform.Devices] returns; in a cell it shows as a
// table, one row per device.
type DeviceList []*Device

// String lists the devices, one per line.
func (l DeviceList) String() string {
	if len(l) == 0 {
		return "no devices"
	}
	var b strings.Builder
	for _, d := range l {
		fmt.Fprintf(&b, "device %d:%d: %s (%s, %s, %s global, %d compute units)\n",
			d.Platform.Index, d.Index, d.Name, d.Type, d.Version, formatBytes(d.GlobalMemBytes), d.ComputeUnits)
	}
	return strings.TrimRight(b.String(), "\n")
}

// HTML renders the devices as one table.
func (l DeviceList) HTML() string {
	var rows [][]string
	for _, d := range l {
		rows = append(rows, []string{fmt.Sprintf("%d:%d", d.Platform.Index, d.Index), d.Name, d.Type, d.Version,
			formatBytes(d.GlobalMemBytes), formatBytes(d.MaxAllocBytes), strconv.Itoa(d.ComputeUnits), yesNo(d.UnifiedMemory), svmText(d.SVM)})
	}
	return viz.TableHTML("OpenCL devices", []string{"GOCL_CTX", "device", "type", "version", "global memory", "max allocation", "compute units", "unified memory", "SVM"}, rows)
}

// Devices lists the platform's devices of every type. A platform with no
// device gives an empty list.
func (p *Platform) Devices() DeviceList {
	var n C.cl_uint
	rc := C.clGetDeviceIDs(p.id, C.CL_DEVICE_TYPE_ALL, 0, nil, &n)
	if rc == C.CL_DEVICE_NOT_FOUND || (rc == C.CL_SUCCESS && n == 0) {
		return nil
	}
	if rc != C.CL_SUCCESS {
		fail("clGetDeviceIDs", int(rc), "listing devices of "+p.Name)
	}
	ids := make([]C.cl_device_id, n)
	if rc := C.clGetDeviceIDs(p.id, C.CL_DEVICE_TYPE_ALL, n, &ids[0], nil); rc != C.CL_SUCCESS {
		fail("clGetDeviceIDs", int(rc), "listing devices of "+p.Name)
	}
	// Drivers set themselves up here (PoCL starts LLVM, which installs
	// crash handlers in front of the engine's): put the engine's back.
	faultguard.Run()
	out := make([]*Device, len(ids))
	for i, id := range ids {
		out[i] = newDevice(p, i, id)
	}
	return out
}

// String is one line: index, name, vendor, version.
func (p *Platform) String() string {
	return fmt.Sprintf("platform %d: %s (%s), %s", p.Index, p.Name, p.Vendor, p.Version)
}

// AtLeast reports whether the platform's OpenCL version is at least major.minor.
func (p *Platform) AtLeast(major, minor int) bool {
	return p.major > major || (p.major == major && p.minor >= minor)
}

func newDevice(p *Platform, index int, id C.cl_device_id) *Device {
	d := &Device{id: id, Platform: p, Index: index}
	d.Name = deviceString(id, C.CL_DEVICE_NAME)
	d.Vendor = deviceString(id, C.CL_DEVICE_VENDOR)
	d.DriverVersion = deviceString(id, C.CL_DRIVER_VERSION)
	d.Version = deviceString(id, C.CL_DEVICE_VERSION)
	d.CVersion = deviceString(id, C.CL_DEVICE_OPENCL_C_VERSION)
	d.Extensions = deviceString(id, C.CL_DEVICE_EXTENSIONS)
	d.major, d.minor = parseVersion(d.Version)
	t := deviceUlong(id, C.CL_DEVICE_TYPE)
	switch {
	case t&C.CL_DEVICE_TYPE_GPU != 0:
		d.Type = "GPU"
	case t&C.CL_DEVICE_TYPE_CPU != 0:
		d.Type = "CPU"
	case t&C.CL_DEVICE_TYPE_ACCELERATOR != 0:
		d.Type = "accelerator"
	case t&C.CL_DEVICE_TYPE_CUSTOM != 0:
		d.Type = "custom"
	default:
		d.Type = "other"
	}
	d.GlobalMemBytes = int64(deviceUlong(id, C.CL_DEVICE_GLOBAL_MEM_SIZE))
	d.MaxAllocBytes = int64(deviceUlong(id, C.CL_DEVICE_MAX_MEM_ALLOC_SIZE))
	d.ComputeUnits = int(deviceUint(id, C.CL_DEVICE_MAX_COMPUTE_UNITS))
	d.MaxWorkGroup = int(deviceSize(id, C.CL_DEVICE_MAX_WORK_GROUP_SIZE))
	d.UnifiedMemory = deviceUint(id, C.CL_DEVICE_HOST_UNIFIED_MEMORY) != 0
	d.TimerResolution = time.Duration(deviceSize(id, C.CL_DEVICE_PROFILING_TIMER_RESOLUTION))
	d.BaseAlignBytes = int(deviceUint(id, C.CL_DEVICE_MEM_BASE_ADDR_ALIGN) / 8)
	d.SVM = Flags{names: svmCaps}
	if d.AtLeast(2, 0) {
		d.SVM.Value = uint64(deviceUlong(id, C.CL_DEVICE_SVM_CAPABILITIES))
	}
	if d.HasExtension("cl_nv_device_attribute_query") {
		d.NVAttributes = true
		d.GPUOverlapNV = deviceUint(id, C.CL_DEVICE_GPU_OVERLAP_NV) != 0
		d.AsyncEngineCountNV = int(deviceUint(id, C.CL_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT_NV))
	}
	return d
}

// HasExtension reports whether the device lists the named extension.
func (d *Device) HasExtension(name string) bool {
	for _, e := range strings.Fields(d.Extensions) {
		if e == name {
			return true
		}
	}
	return false
}

// AtLeast reports whether the device's OpenCL version is at least major.minor.
func (d *Device) AtLeast(major, minor int) bool {
	return d.major > major || (d.major == major && d.minor >= minor)
}

// String is a short multi-line description of the device.
func (d *Device) String() string {
	var b strings.Builder
	for _, r := range d.rows() {
		fmt.Fprintf(&b, "%-22s %s\n", r[0]+":", r[1])
	}
	return strings.TrimRight(b.String(), "\n")
}

// HTML renders the device's properties as a table.
func (d *Device) HTML() string {
	return viz.TableHTML(d.Name, []string{"property", "value"}, d.rows())
}

func (d *Device) rows() [][]string {
	rows := [][]string{
		{"name", d.Name},
		{"platform", d.Platform.Name},
		{"type", d.Type},
		{"vendor", d.Vendor},
		{"driver", d.DriverVersion},
		{"OpenCL version", d.Version},
		{"global memory", formatBytes(d.GlobalMemBytes)},
		{"max allocation", formatBytes(d.MaxAllocBytes)},
		{"compute units", strconv.Itoa(d.ComputeUnits)},
		{"unified host memory", yesNo(d.UnifiedMemory)},
		{"timer resolution", d.TimerResolution.String()},
		{"shared virtual memory", svmText(d.SVM)},
	}
	if d.NVAttributes {
		rows = append(rows,
			[]string{"GPU overlap (NV)", yesNo(d.GPUOverlapNV)},
			[]string{"async copy engines (NV)", strconv.Itoa(d.AsyncEngineCountNV)})
	}
	return rows
}

// String lists every platform and its devices, one per line.
func (l PlatformList) String() string {
	if len(l) == 0 {
		return "no OpenCL platform found (run `gocl doctor`)"
	}
	var b strings.Builder
	for _, p := range l {
		b.WriteString(p.String())
		b.WriteByte('\n')
		for _, d := range p.Devices() {
			fmt.Fprintf(&b, "  device %d:%d: %s (%s, %s, %s global, %d compute units)\n",
				p.Index, d.Index, d.Name, d.Type, d.Version, formatBytes(d.GlobalMemBytes), d.ComputeUnits)
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// HTML renders every platform and device as one table; the first column is
// the "platform:device" selector that GOCL_CTX accepts.
func (l PlatformList) HTML() string {
	var rows [][]string
	for _, p := range l {
		for _, d := range p.Devices() {
			rows = append(rows, []string{
				fmt.Sprintf("%d:%d", p.Index, d.Index), p.Name, d.Name, d.Type, d.Version,
				formatBytes(d.GlobalMemBytes), formatBytes(d.MaxAllocBytes), strconv.Itoa(d.ComputeUnits),
				yesNo(d.UnifiedMemory),
			})
		}
	}
	return viz.TableHTML("OpenCL platforms and devices",
		[]string{"GOCL_CTX", "platform", "device", "type", "version", "global memory", "max allocation", "compute units", "unified memory"},
		rows)
}

func platformString(id C.cl_platform_id, param C.cl_platform_info) string {
	var size C.size_t
	if C.clGetPlatformInfo(id, param, 0, nil, &size) != C.CL_SUCCESS || size == 0 {
		return ""
	}
	buf := make([]byte, size)
	if C.clGetPlatformInfo(id, param, size, unsafe.Pointer(&buf[0]), nil) != C.CL_SUCCESS {
		return ""
	}
	return cString(buf)
}

func deviceString(id C.cl_device_id, param C.cl_device_info) string {
	var size C.size_t
	if C.clGetDeviceInfo(id, param, 0, nil, &size) != C.CL_SUCCESS || size == 0 {
		return ""
	}
	buf := make([]byte, size)
	if C.clGetDeviceInfo(id, param, size, unsafe.Pointer(&buf[0]), nil) != C.CL_SUCCESS {
		return ""
	}
	return cString(buf)
}

// deviceUlong, deviceUint and deviceSize read scalar device properties; a
// property the device does not answer reads as zero.
func deviceUlong(id C.cl_device_id, param C.cl_device_info) C.cl_ulong {
	var v C.cl_ulong
	if C.clGetDeviceInfo(id, param, C.size_t(unsafe.Sizeof(v)), unsafe.Pointer(&v), nil) != C.CL_SUCCESS {
		return 0
	}
	return v
}

func deviceUint(id C.cl_device_id, param C.cl_device_info) C.cl_uint {
	var v C.cl_uint
	if C.clGetDeviceInfo(id, param, C.size_t(unsafe.Sizeof(v)), unsafe.Pointer(&v), nil) != C.CL_SUCCESS {
		return 0
	}
	return v
}

func deviceSize(id C.cl_device_id, param C.cl_device_info) C.size_t {
	var v C.size_t
	if C.clGetDeviceInfo(id, param, C.size_t(unsafe.Sizeof(v)), unsafe.Pointer(&v), nil) != C.CL_SUCCESS {
		return 0
	}
	return v
}

// cString trims a NUL-terminated byte buffer and surrounding space.
func cString(b []byte) string {
	if i := strings.IndexByte(string(b), 0); i >= 0 {
		b = b[:i]
	}
	return strings.TrimSpace(string(b))
}

// parseVersion reads "OpenCL 3.0 ..." as 3, 0; anything else as 1, 0.
func parseVersion(v string) (major, minor int) {
	f := strings.Fields(v)
	if len(f) < 2 {
		return 1, 0
	}
	mm := strings.SplitN(f[1], ".", 2)
	major, err1 := strconv.Atoi(mm[0])
	if err1 != nil {
		return 1, 0
	}
	if len(mm) == 2 {
		minor, _ = strconv.Atoi(mm[1])
	}
	return major, minor
}

func formatBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

func svmText(f Flags) string {
	if f.Value == 0 {
		return "none"
	}
	return f.String()
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
