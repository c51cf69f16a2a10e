package clapi

/*
#include "gocl_cl.h"
*/
import "C"

import (
	"fmt"
	"runtime"
	"strconv"
	"unsafe"

	"github.com/seed43a1e1ab/gocl/clapi/viz"
)

// WorkGroupInfo is what a device says about running a kernel
// (clGetKernelWorkGroupInfo, PyOpenCL's kernel.get_work_group_info).
type WorkGroupInfo struct {
	Kernel                string
	Device                string
	WorkGroupSize         int    // CL_KERNEL_WORK_GROUP_SIZE: the largest work-group this kernel can run in
	CompileWorkGroupSize  [3]int // CL_KERNEL_COMPILE_WORK_GROUP_SIZE: reqd_work_group_size, or zeros
	LocalMemBytes         int64  // CL_KERNEL_LOCAL_MEM_SIZE: __local memory the kernel uses
	PreferredSizeMultiple int    // CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE: pick local sizes that are multiples of it
	PrivateMemBytes       int64  // CL_KERNEL_PRIVATE_MEM_SIZE: private memory per work-item
}

// WorkGroupInfo asks dev (nil: the context's first device) how it runs
// the kernel.
func (k *Kernel) WorkGroupInfo(dev *Device) WorkGroupInfo {
	const call = "clGetKernelWorkGroupInfo"
	id := k.handle(call)
	if dev == nil {
		dev = k.prog.ctx.devices[0]
	}
	if !k.prog.ctx.hasDevice(dev) {
		refuse(call, "CL_INVALID_DEVICE", dev.Name+" is not a device of the kernel's context", "")
	}
	get := func(param C.cl_kernel_work_group_info, p unsafe.Pointer, n uintptr) {
		if rc := C.clGetKernelWorkGroupInfo(id, dev.id, param, C.size_t(n), p, nil); rc != C.CL_SUCCESS {
			fail(call, int(rc), "kernel "+k.name+" on "+dev.Name)
		}
	}
	var wg, mult C.size_t
	var comp [3]C.size_t
	var local, private C.cl_ulong
	get(C.CL_KERNEL_WORK_GROUP_SIZE, unsafe.Pointer(&wg), unsafe.Sizeof(wg))
	get(C.CL_KERNEL_COMPILE_WORK_GROUP_SIZE, unsafe.Pointer(&comp[0]), unsafe.Sizeof(comp))
	get(C.CL_KERNEL_LOCAL_MEM_SIZE, unsafe.Pointer(&local), unsafe.Sizeof(local))
	get(C.CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, unsafe.Pointer(&mult), unsafe.Sizeof(mult))
	get(C.CL_KERNEL_PRIVATE_MEM_SIZE, unsafe.Pointer(&private), unsafe.Sizeof(private))
	runtime.KeepAlive(k)
	return WorkGroupInfo{Kernel: k.name, Device: dev.Name, WorkGroupSize: int(wg),
		CompileWorkGroupSize: [3]int{int(comp[0]), int(comp[1]), int(comp[2])},
		LocalMemBytes:        int64(local), PreferredSizeMultiple: int(mult), PrivateMemBytes: int64(private)}
}

func (w WorkGroupInfo) rows() [][]string {
	return [][]string{
		{"WORK_GROUP_SIZE", strconv.Itoa(w.WorkGroupSize)},
		{"COMPILE_WORK_GROUP_SIZE", fmt.Sprint(w.CompileWorkGroupSize)},
		{"LOCAL_MEM_SIZE", strconv.FormatInt(w.LocalMemBytes, 10)},
		{"PREFERRED_WORK_GROUP_SIZE_MULTIPLE", strconv.Itoa(w.PreferredSizeMultiple)},
		{"PRIVATE_MEM_SIZE", strconv.FormatInt(w.PrivateMemBytes, 10)},
	}
}

// String lists the figures, one per line.
func (w WorkGroupInfo) String() string {
	s := "kernel " + w.Kernel + " on " + w.Device
	for _, r := range w.rows() {
		s += "\n" + r[0] + ": " + r[1]
	}
	return s
}

// HTML renders the figures as a table.
func (w WorkGroupInfo) HTML() string {
	return viz.TableHTML("kernel "+w.Kernel+" on "+w.Device, []string{"parameter", "value"}, w.rows())
}
