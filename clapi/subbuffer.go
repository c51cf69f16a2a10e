package clapi

/*
#include "gocl_cl.h"
*/
import "C"

import (
	"fmt"
	"runtime"
	"time"
	"unsafe"
)

// Sub returns a sub-buffer: size bytes of b from byte offset offset
// (clCreateSubBuffer, PyOpenCL's buf[offset:offset+size] or
// buf.get_sub_region). It shares b's memory and flags, keeps b alive, and
// can be copied to, mapped and passed to kernels like any buffer, so data
// can be moved and processed in chunks without copying it around. The
// offset must be a multiple of every device's CL_DEVICE_MEM_BASE_ADDR_ALIGN
// ([Device.BaseAlignBytes]); a sub-buffer of a sub-buffer is refused, as
// OpenCL does.
func (b *Buffer) Sub(offset, size int) *Buffer {
	const call = "clCreateSubBuffer"
	mid := b.handle(call)
	if b.parent != nil {
		refuse(call, "CL_INVALID_MEM_OBJECT", "the buffer is itself a sub-buffer", "take the sub-buffer from the parent: parent.Sub(offset, size)")
	}
	if offset < 0 || size <= 0 || int64(offset)+int64(size) > b.size {
		refuse(call, "CL_INVALID_VALUE", fmt.Sprintf("%d bytes at offset %d do not fit the %d-byte buffer", size, offset, b.size), "offset >= 0, size > 0, offset+size <= buf.Size()")
	}
	for _, d := range b.ctx.devices {
		if a := d.BaseAlignBytes; a > 0 && offset%a != 0 {
			refuse(call, "CL_MISALIGNED_SUB_BUFFER_OFFSET", fmt.Sprintf("offset %d is not a multiple of %s's %d-byte base address alignment", offset, d.Name, a),
				fmt.Sprintf("use offsets that are multiples of %d (dev.BaseAlignBytes)", a))
		}
	}
	region := C.cl_buffer_region{origin: C.size_t(offset), size: C.size_t(size)}
	var rc C.cl_int
	start := time.Now()
	id := C.clCreateSubBuffer(mid, 0, C.CL_BUFFER_CREATE_TYPE_REGION, unsafe.Pointer(&region), &rc)
	traceCall(call, start)
	runtime.KeepAlive(b)
	if rc != C.CL_SUCCESS {
		fail(call, int(rc), fmt.Sprintf("%d bytes at offset %d of a %d-byte buffer", size, offset, b.size))
	}
	s := &Buffer{id: id, ctx: b.ctx, size: int64(size), flags: b.flags &^ (CopyHostPtr | UseHostPtr | AllocHostPtr), parent: b, origin: int64(offset)}
	runtime.SetFinalizer(s, func(s *Buffer) { releaseLater(s.Release) })
	return s
}

// Parent returns the buffer a sub-buffer was taken from, or nil.
func (b *Buffer) Parent() *Buffer { return b.parent }

// Origin is a sub-buffer's byte offset in its parent (0 for a buffer).
func (b *Buffer) Origin() int { return int(b.origin) }
