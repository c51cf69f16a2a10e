package clapi

/*
#include "gocl_cl.h"
*/
import "C"

import (
	"encoding/binary"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unsafe"

	"github.com/seed43a1e1ab/gocl/clapi/viz"
)

// infoKind says how a get_info answer is laid out.
type infoKind int

const (
	kStr      infoKind = iota // char[]
	kUint                     // cl_uint
	kUlong                    // cl_ulong
	kSize                     // size_t
	kBool                     // cl_bool
	kSizes                    // size_t[]
	kUints                    // cl_uint[]
	kFlags                    // a cl_bitfield (cl_ulong), shown by flag names
	kEnum                     // a cl_uint enumeration, shown by name
	kVersion                  // cl_version
	kNameVers                 // cl_name_version[]
	kProps                    // cl_*_properties[] (intptr_t or cl_ulong, zero-terminated)
	kHandle                   // an object handle (platform, parent device)
	kBytes                    // raw bytes (UUIDs, LUIDs), shown in hex
)

// infoParam is one get_info parameter, named as PyOpenCL names it
// (cl.device_info.MAX_COMPUTE_UNITS is "MAX_COMPUTE_UNITS").
type infoParam struct {
	name  string
	code  uint32
	kind  infoKind
	names []flagName // for kFlags and kEnum
}

type flagName struct {
	bit  uint64
	name string
}

var fpConfig = []flagName{{1, "DENORM"}, {2, "INF_NAN"}, {4, "ROUND_TO_NEAREST"}, {8, "ROUND_TO_ZERO"}, {16, "ROUND_TO_INF"}, {32, "FMA"}, {64, "SOFT_FLOAT"}, {128, "CORRECTLY_ROUNDED_DIVIDE_SQRT"}}
var deviceTypes = []flagName{{1, "DEFAULT"}, {2, "CPU"}, {4, "GPU"}, {8, "ACCELERATOR"}, {16, "CUSTOM"}}
var queueProps = []flagName{{1, "OUT_OF_ORDER_EXEC_MODE_ENABLE"}, {2, "PROFILING_ENABLE"}, {4, "ON_DEVICE"}, {8, "ON_DEVICE_DEFAULT"}}
var svmCaps = []flagName{{1, "COARSE_GRAIN_BUFFER"}, {2, "FINE_GRAIN_BUFFER"}, {4, "FINE_GRAIN_SYSTEM"}, {8, "ATOMICS"}}
var execCaps = []flagName{{1, "KERNEL"}, {2, "NATIVE_KERNEL"}}
var affinity = []flagName{{1, "NUMA"}, {2, "L4_CACHE"}, {4, "L3_CACHE"}, {8, "L2_CACHE"}, {16, "L1_CACHE"}, {32, "NEXT_PARTITIONABLE"}}
var atomicCaps = []flagName{{1, "ORDER_RELAXED"}, {2, "ORDER_ACQ_REL"}, {4, "ORDER_SEQ_CST"}, {8, "SCOPE_WORK_ITEM"}, {16, "SCOPE_WORK_GROUP"}, {32, "SCOPE_DEVICE"}, {64, "SCOPE_ALL_DEVICES"}}
var enqueueCaps = []flagName{{1, "REPLACEABLE_DEFAULT"}}
var cacheTypes = []flagName{{0, "NONE"}, {1, "READ_ONLY_CACHE"}, {2, "READ_WRITE_CACHE"}}
var localTypes = []flagName{{1, "LOCAL"}, {2, "GLOBAL"}}

// deviceParams lists every device parameter gocl knows, from the OpenCL
// 3.0 headers and the NVIDIA, AMD, Intel and KHR extensions a transfer
// study meets. Devices answer the ones they support.
var deviceParams = []infoParam{
	{"TYPE", 0x1000, kFlags, deviceTypes}, {"VENDOR_ID", 0x1001, kUint, nil}, {"MAX_COMPUTE_UNITS", 0x1002, kUint, nil},
	{"MAX_WORK_ITEM_DIMENSIONS", 0x1003, kUint, nil}, {"MAX_WORK_GROUP_SIZE", 0x1004, kSize, nil}, {"MAX_WORK_ITEM_SIZES", 0x1005, kSizes, nil},
	{"PREFERRED_VECTOR_WIDTH_CHAR", 0x1006, kUint, nil}, {"PREFERRED_VECTOR_WIDTH_SHORT", 0x1007, kUint, nil}, {"PREFERRED_VECTOR_WIDTH_INT", 0x1008, kUint, nil},
	{"PREFERRED_VECTOR_WIDTH_LONG", 0x1009, kUint, nil}, {"PREFERRED_VECTOR_WIDTH_FLOAT", 0x100A, kUint, nil}, {"PREFERRED_VECTOR_WIDTH_DOUBLE", 0x100B, kUint, nil},
	{"MAX_CLOCK_FREQUENCY", 0x100C, kUint, nil}, {"ADDRESS_BITS", 0x100D, kUint, nil}, {"MAX_READ_IMAGE_ARGS", 0x100E, kUint, nil},
	{"MAX_WRITE_IMAGE_ARGS", 0x100F, kUint, nil}, {"MAX_MEM_ALLOC_SIZE", 0x1010, kUlong, nil}, {"IMAGE2D_MAX_WIDTH", 0x1011, kSize, nil},
	{"IMAGE2D_MAX_HEIGHT", 0x1012, kSize, nil}, {"IMAGE3D_MAX_WIDTH", 0x1013, kSize, nil}, {"IMAGE3D_MAX_HEIGHT", 0x1014, kSize, nil},
	{"IMAGE3D_MAX_DEPTH", 0x1015, kSize, nil}, {"IMAGE_SUPPORT", 0x1016, kBool, nil}, {"MAX_PARAMETER_SIZE", 0x1017, kSize, nil},
	{"MAX_SAMPLERS", 0x1018, kUint, nil}, {"MEM_BASE_ADDR_ALIGN", 0x1019, kUint, nil}, {"MIN_DATA_TYPE_ALIGN_SIZE", 0x101A, kUint, nil},
	{"SINGLE_FP_CONFIG", 0x101B, kFlags, fpConfig}, {"GLOBAL_MEM_CACHE_TYPE", 0x101C, kEnum, cacheTypes}, {"GLOBAL_MEM_CACHELINE_SIZE", 0x101D, kUint, nil},
	{"GLOBAL_MEM_CACHE_SIZE", 0x101E, kUlong, nil}, {"GLOBAL_MEM_SIZE", 0x101F, kUlong, nil}, {"MAX_CONSTANT_BUFFER_SIZE", 0x1020, kUlong, nil},
	{"MAX_CONSTANT_ARGS", 0x1021, kUint, nil}, {"LOCAL_MEM_TYPE", 0x1022, kEnum, localTypes}, {"LOCAL_MEM_SIZE", 0x1023, kUlong, nil},
	{"ERROR_CORRECTION_SUPPORT", 0x1024, kBool, nil}, {"PROFILING_TIMER_RESOLUTION", 0x1025, kSize, nil}, {"ENDIAN_LITTLE", 0x1026, kBool, nil},
	{"AVAILABLE", 0x1027, kBool, nil}, {"COMPILER_AVAILABLE", 0x1028, kBool, nil}, {"EXECUTION_CAPABILITIES", 0x1029, kFlags, execCaps},
	{"QUEUE_PROPERTIES", 0x102A, kFlags, queueProps}, {"NAME", 0x102B, kStr, nil}, {"VENDOR", 0x102C, kStr, nil},
	{"DRIVER_VERSION", 0x102D, kStr, nil}, {"PROFILE", 0x102E, kStr, nil}, {"VERSION", 0x102F, kStr, nil},
	{"EXTENSIONS", 0x1030, kStr, nil}, {"PLATFORM", 0x1031, kHandle, nil}, {"DOUBLE_FP_CONFIG", 0x1032, kFlags, fpConfig},
	{"HALF_FP_CONFIG", 0x1033, kFlags, fpConfig}, {"PREFERRED_VECTOR_WIDTH_HALF", 0x1034, kUint, nil}, {"HOST_UNIFIED_MEMORY", 0x1035, kBool, nil},
	{"NATIVE_VECTOR_WIDTH_CHAR", 0x1036, kUint, nil}, {"NATIVE_VECTOR_WIDTH_SHORT", 0x1037, kUint, nil}, {"NATIVE_VECTOR_WIDTH_INT", 0x1038, kUint, nil},
	{"NATIVE_VECTOR_WIDTH_LONG", 0x1039, kUint, nil}, {"NATIVE_VECTOR_WIDTH_FLOAT", 0x103A, kUint, nil}, {"NATIVE_VECTOR_WIDTH_DOUBLE", 0x103B, kUint, nil},
	{"NATIVE_VECTOR_WIDTH_HALF", 0x103C, kUint, nil}, {"OPENCL_C_VERSION", 0x103D, kStr, nil}, {"LINKER_AVAILABLE", 0x103E, kBool, nil},
	{"BUILT_IN_KERNELS", 0x103F, kStr, nil}, {"IMAGE_MAX_BUFFER_SIZE", 0x1040, kSize, nil}, {"IMAGE_MAX_ARRAY_SIZE", 0x1041, kSize, nil},
	{"PARENT_DEVICE", 0x1042, kHandle, nil}, {"PARTITION_MAX_SUB_DEVICES", 0x1043, kUint, nil}, {"PARTITION_PROPERTIES", 0x1044, kProps, nil},
	{"PARTITION_AFFINITY_DOMAIN", 0x1045, kFlags, affinity}, {"PARTITION_TYPE", 0x1046, kProps, nil}, {"REFERENCE_COUNT", 0x1047, kUint, nil},
	{"PREFERRED_INTEROP_USER_SYNC", 0x1048, kBool, nil}, {"PRINTF_BUFFER_SIZE", 0x1049, kSize, nil}, {"IMAGE_PITCH_ALIGNMENT", 0x104A, kUint, nil},
	{"IMAGE_BASE_ADDRESS_ALIGNMENT", 0x104B, kUint, nil}, {"MAX_READ_WRITE_IMAGE_ARGS", 0x104C, kUint, nil}, {"MAX_GLOBAL_VARIABLE_SIZE", 0x104D, kSize, nil},
	{"QUEUE_ON_DEVICE_PROPERTIES", 0x104E, kFlags, queueProps}, {"QUEUE_ON_DEVICE_PREFERRED_SIZE", 0x104F, kUint, nil}, {"QUEUE_ON_DEVICE_MAX_SIZE", 0x1050, kUint, nil},
	{"MAX_ON_DEVICE_QUEUES", 0x1051, kUint, nil}, {"MAX_ON_DEVICE_EVENTS", 0x1052, kUint, nil}, {"SVM_CAPABILITIES", 0x1053, kFlags, svmCaps},
	{"GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE", 0x1054, kSize, nil}, {"MAX_PIPE_ARGS", 0x1055, kUint, nil}, {"PIPE_MAX_ACTIVE_RESERVATIONS", 0x1056, kUint, nil},
	{"PIPE_MAX_PACKET_SIZE", 0x1057, kUint, nil}, {"PREFERRED_PLATFORM_ATOMIC_ALIGNMENT", 0x1058, kUint, nil}, {"PREFERRED_GLOBAL_ATOMIC_ALIGNMENT", 0x1059, kUint, nil},
	{"PREFERRED_LOCAL_ATOMIC_ALIGNMENT", 0x105A, kUint, nil}, {"IL_VERSION", 0x105B, kStr, nil}, {"MAX_NUM_SUB_GROUPS", 0x105C, kUint, nil},
	{"SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS", 0x105D, kBool, nil}, {"NUMERIC_VERSION", 0x105E, kVersion, nil}, {"OPENCL_C_NUMERIC_VERSION_KHR", 0x105F, kVersion, nil},
	{"EXTENSIONS_WITH_VERSION", 0x1060, kNameVers, nil}, {"ILS_WITH_VERSION", 0x1061, kNameVers, nil}, {"BUILT_IN_KERNELS_WITH_VERSION", 0x1062, kNameVers, nil},
	{"ATOMIC_MEMORY_CAPABILITIES", 0x1063, kFlags, atomicCaps}, {"ATOMIC_FENCE_CAPABILITIES", 0x1064, kFlags, atomicCaps}, {"NON_UNIFORM_WORK_GROUP_SUPPORT", 0x1065, kBool, nil},
	{"OPENCL_C_ALL_VERSIONS", 0x1066, kNameVers, nil}, {"PREFERRED_WORK_GROUP_SIZE_MULTIPLE", 0x1067, kSize, nil}, {"WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT", 0x1068, kBool, nil},
	{"GENERIC_ADDRESS_SPACE_SUPPORT", 0x1069, kBool, nil}, {"UUID_KHR", 0x106A, kBytes, nil}, {"DRIVER_UUID_KHR", 0x106B, kBytes, nil},
	{"LUID_VALID_KHR", 0x106C, kBool, nil}, {"LUID_KHR", 0x106D, kBytes, nil}, {"NODE_MASK_KHR", 0x106E, kUint, nil},
	{"OPENCL_C_FEATURES", 0x106F, kNameVers, nil}, {"DEVICE_ENQUEUE_CAPABILITIES", 0x1070, kFlags, enqueueCaps}, {"PIPE_SUPPORT", 0x1071, kBool, nil},
	{"LATEST_CONFORMANCE_VERSION_PASSED", 0x1072, kStr, nil}, {"INTEGER_DOT_PRODUCT_CAPABILITIES_KHR", 0x1073, kFlags, []flagName{{1, "PACKED"}, {2, "INPUT_4x8BIT"}}},
	{"PCI_BUS_INFO_KHR", 0x410F, kUints, nil},
	{"COMPUTE_CAPABILITY_MAJOR_NV", 0x4000, kUint, nil}, {"COMPUTE_CAPABILITY_MINOR_NV", 0x4001, kUint, nil}, {"REGISTERS_PER_BLOCK_NV", 0x4002, kUint, nil},
	{"WARP_SIZE_NV", 0x4003, kUint, nil}, {"GPU_OVERLAP_NV", 0x4004, kBool, nil}, {"KERNEL_EXEC_TIMEOUT_NV", 0x4005, kBool, nil},
	{"INTEGRATED_MEMORY_NV", 0x4006, kBool, nil}, {"ATTRIBUTE_ASYNC_ENGINE_COUNT_NV", 0x4007, kUint, nil}, {"PCI_BUS_ID_NV", 0x4008, kUint, nil},
	{"PCI_SLOT_ID_NV", 0x4009, kUint, nil}, {"PCI_DOMAIN_ID_NV", 0x400A, kUint, nil},
	{"BOARD_NAME_AMD", 0x4038, kStr, nil}, {"GLOBAL_FREE_MEMORY_AMD", 0x4039, kSizes, nil}, {"SIMD_PER_COMPUTE_UNIT_AMD", 0x4040, kUint, nil},
	{"WAVEFRONT_WIDTH_AMD", 0x4043, kUint, nil}, {"IP_VERSION_INTEL", 0x4250, kVersion, nil}, {"ID_INTEL", 0x4251, kUint, nil},
	{"NUM_SLICES_INTEL", 0x4252, kUint, nil}, {"NUM_EUS_PER_SUB_SLICE_INTEL", 0x4254, kUint, nil},
}

// platformParams lists every platform parameter of OpenCL 3.0.
var platformParams = []infoParam{
	{"PROFILE", 0x0900, kStr, nil}, {"VERSION", 0x0901, kStr, nil}, {"NAME", 0x0902, kStr, nil}, {"VENDOR", 0x0903, kStr, nil},
	{"EXTENSIONS", 0x0904, kStr, nil}, {"HOST_TIMER_RESOLUTION", 0x0905, kUlong, nil}, {"NUMERIC_VERSION", 0x0906, kVersion, nil},
	{"EXTENSIONS_WITH_VERSION", 0x0907, kNameVers, nil}, {"ICD_SUFFIX_KHR", 0x0920, kStr, nil},
}

func paramNames(ps []infoParam) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.name
	}
	sort.Strings(out)
	return out
}

// DeviceInfo lists the device parameter names GetInfo accepts, sorted, as
// PyOpenCL's dir(cl.device_info) does ("MAX_COMPUTE_UNITS", ...).
var DeviceInfo = paramNames(deviceParams)

// PlatformInfo lists the platform parameter names GetInfo accepts, sorted.
var PlatformInfo = paramNames(platformParams)

func findParam(call string, ps []infoParam, name string) infoParam {
	n := strings.ToUpper(strings.TrimSpace(name))
	n = strings.TrimPrefix(strings.TrimPrefix(n, "CL_DEVICE_"), "CL_PLATFORM_")
	if n == "CL_DRIVER_VERSION" {
		n = "DRIVER_VERSION"
	}
	for _, p := range ps {
		if p.name == n {
			return p
		}
	}
	refuse(call, "CL_INVALID_VALUE", fmt.Sprintf("no parameter %q", name), "cl.DeviceInfo and cl.PlatformInfo list the names, e.g. \"MAX_COMPUTE_UNITS\"")
	return infoParam{}
}

// Flags is a bitfield answer of GetInfo (a device type, an FP config, SVM
// capabilities...); it prints as its flag names.
type Flags struct {
	Value uint64
	names []flagName
	enum  bool
}

// Has reports whether every bit of mask is set.
func (f Flags) Has(mask uint64) bool { return f.Value&mask == mask }

// String lists the set flags by name, "GPU" or "DENORM|INF_NAN|FMA".
func (f Flags) String() string {
	if f.enum {
		for _, n := range f.names {
			if n.bit == f.Value {
				return n.name
			}
		}
		return strconv.FormatUint(f.Value, 10)
	}
	var parts []string
	rest := f.Value
	for _, n := range f.names {
		if n.bit != 0 && f.Value&n.bit != 0 {
			parts = append(parts, n.name)
			rest &^= n.bit
		}
	}
	if rest != 0 {
		parts = append(parts, fmt.Sprintf("%#x", rest))
	}
	if len(parts) == 0 {
		return "0"
	}
	return strings.Join(parts, "|")
}

// GetInfo asks the device one parameter by its PyOpenCL name
// ("MAX_COMPUTE_UNITS"; the CL_DEVICE_ prefix may be given). The answer is a
// string, bool, int64, []int64, []string (name-version lists), a Flags, or
// a *Platform. A parameter the device does not answer panics with its error
// (clGetDeviceInfo: CL_INVALID_VALUE); wrap the call in cl.Try to go on.
func (d *Device) GetInfo(name string) any {
	const call = "clGetDeviceInfo"
	p := findParam(call, deviceParams, name)
	raw, rc := deviceRaw(d.id, C.cl_device_info(p.code))
	if rc != C.CL_SUCCESS {
		fail(call, int(rc), "CL_DEVICE_"+p.name+" on "+d.Name)
	}
	if p.name == "PLATFORM" {
		return d.Platform
	}
	return decodeInfo(p, raw)
}

// GetInfo asks the platform one parameter by its PyOpenCL name ("VERSION");
// see [Device.GetInfo].
func (p *Platform) GetInfo(name string) any {
	const call = "clGetPlatformInfo"
	prm := findParam(call, platformParams, name)
	var size C.size_t
	rc := C.clGetPlatformInfo(p.id, C.cl_platform_info(prm.code), 0, nil, &size)
	if rc != C.CL_SUCCESS {
		fail(call, int(rc), "CL_PLATFORM_"+prm.name+" on "+p.Name)
	}
	raw := make([]byte, size)
	if size > 0 {
		if rc := C.clGetPlatformInfo(p.id, C.cl_platform_info(prm.code), size, unsafe.Pointer(&raw[0]), nil); rc != C.CL_SUCCESS {
			fail(call, int(rc), "CL_PLATFORM_"+prm.name+" on "+p.Name)
		}
	}
	return decodeInfo(prm, raw)
}

func deviceRaw(id C.cl_device_id, code C.cl_device_info) ([]byte, C.cl_int) {
	var size C.size_t
	if rc := C.clGetDeviceInfo(id, code, 0, nil, &size); rc != C.CL_SUCCESS {
		return nil, rc
	}
	raw := make([]byte, size)
	if size == 0 {
		return raw, C.CL_SUCCESS
	}
	return raw, C.clGetDeviceInfo(id, code, size, unsafe.Pointer(&raw[0]), nil)
}

func decodeInfo(p infoParam, raw []byte) any {
	le := binary.LittleEndian
	word := func(n int) uint64 {
		switch {
		case len(raw) >= 8 && n == 8:
			return le.Uint64(raw)
		case len(raw) >= 4:
			return uint64(le.Uint32(raw))
		}
		return 0
	}
	switch p.kind {
	case kStr:
		return cString(raw)
	case kUint:
		return int64(word(4))
	case kUlong, kSize:
		return int64(word(8))
	case kBool:
		return word(4) != 0
	case kSizes:
		out := make([]int64, len(raw)/8)
		for i := range out {
			out[i] = int64(le.Uint64(raw[8*i:]))
		}
		return out
	case kUints:
		out := make([]int64, len(raw)/4)
		for i := range out {
			out[i] = int64(le.Uint32(raw[4*i:]))
		}
		return out
	case kFlags:
		return Flags{Value: word(8), names: p.names}
	case kEnum:
		return Flags{Value: word(4), names: p.names, enum: true}
	case kVersion:
		return versionString(uint32(word(4)))
	case kNameVers:
		// cl_name_version: cl_version then char[64].
		var out []string
		for i := 0; i+68 <= len(raw); i += 68 {
			out = append(out, cString(raw[i+4:i+68])+" "+versionString(le.Uint32(raw[i:])))
		}
		return out
	case kProps:
		var out []int64
		for i := 0; i+8 <= len(raw); i += 8 {
			v := int64(le.Uint64(raw[i:]))
			if v == 0 {
				break
			}
			out = append(out, v)
		}
		return out
	case kHandle:
		if word(8) == 0 {
			return "none"
		}
		return fmt.Sprintf("%#x", word(8))
	}
	return fmt.Sprintf("% x", raw)
}

func versionString(v uint32) string {
	return fmt.Sprintf("%d.%d.%d", v>>22, (v>>12)&0x3ff, v&0xfff)
}

// InfoTable is every parameter an object answered, as [Device.Info] and
// [Platform.Info] return it; in a cell it shows as a table.
type InfoTable struct {
	Title string
	Rows  [][2]string // parameter name, value
}

// Get returns the value shown for a parameter name, and whether it is there.
func (t InfoTable) Get(name string) (string, bool) {
	for _, r := range t.Rows {
		if r[0] == name {
			return r[1], true
		}
	}
	return "", false
}

// String lists "NAME: value" lines, as PyOpenCL's dump_properties.py prints.
func (t InfoTable) String() string {
	var b strings.Builder
	b.WriteString(t.Title + "\n")
	for _, r := range t.Rows {
		b.WriteString(r[0] + ": " + r[1] + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// HTML renders the table.
func (t InfoTable) HTML() string {
	rows := make([][]string, len(t.Rows))
	for i, r := range t.Rows {
		rows[i] = []string{r[0], r[1]}
	}
	return viz.TableHTML(t.Title, []string{"parameter", "value"}, rows)
}

func formatInfo(v any) string {
	switch x := v.(type) {
	case []string:
		return strings.Join(x, ", ")
	case *Platform:
		return x.Name
	}
	return fmt.Sprint(v)
}

// Info asks the device every parameter gocl knows and lists those it
// answers, sorted by name: the full get_info of the device.
func (d *Device) Info() InfoTable {
	t := InfoTable{Title: d.Name + " (every parameter it answers)"}
	for _, name := range DeviceInfo {
		var v any
		if Try(func() { v = d.GetInfo(name) }) == nil {
			t.Rows = append(t.Rows, [2]string{name, formatInfo(v)})
		}
	}
	return t
}

// Info asks the platform every parameter and lists those it answers.
func (p *Platform) Info() InfoTable {
	t := InfoTable{Title: p.Name + " (every parameter it answers)"}
	for _, name := range PlatformInfo {
		var v any
		if Try(func() { v = p.GetInfo(name) }) == nil {
			t.Rows = append(t.Rows, [2]string{name, formatInfo(v)})
		}
	}
	return t
}
