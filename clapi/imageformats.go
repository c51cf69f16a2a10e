package clapi

/*
#include "gocl_cl.h"
*/
import "C"

import (
	"fmt"
	"runtime"
)

// Image object types for [SupportedImageFormats], named as PyOpenCL's
// cl.mem_object_type names them.
const (
	MemObjectImage2D = "IMAGE2D"
	MemObjectImage3D = "IMAGE3D"
)

// ImageFormat is one channel order and data type a device can hold in an
// image, by their OpenCL names without the CL_ prefix ("RGBA", "UNORM_INT8").
type ImageFormat struct {
	ChannelOrder string
	ChannelType  string
}

// String is "RGBA-UNORM_INT8".
func (f ImageFormat) String() string { return f.ChannelOrder + "-" + f.ChannelType }

var channelOrders = map[C.cl_channel_order]string{
	C.CL_R: "R", C.CL_A: "A", C.CL_RG: "RG", C.CL_RA: "RA", C.CL_RGB: "RGB", C.CL_RGBA: "RGBA", C.CL_BGRA: "BGRA",
	C.CL_ARGB: "ARGB", C.CL_INTENSITY: "INTENSITY", C.CL_LUMINANCE: "LUMINANCE", C.CL_Rx: "Rx", C.CL_RGx: "RGx",
	C.CL_RGBx: "RGBx", C.CL_DEPTH: "DEPTH", C.CL_sRGB: "sRGB", C.CL_sRGBx: "sRGBx", C.CL_sRGBA: "sRGBA",
	C.CL_sBGRA: "sBGRA", C.CL_ABGR: "ABGR",
}

var channelTypes = map[C.cl_channel_type]string{
	C.CL_SNORM_INT8: "SNORM_INT8", C.CL_SNORM_INT16: "SNORM_INT16", C.CL_UNORM_INT8: "UNORM_INT8", C.CL_UNORM_INT16: "UNORM_INT16",
	C.CL_UNORM_SHORT_565: "UNORM_SHORT_565", C.CL_UNORM_SHORT_555: "UNORM_SHORT_555", C.CL_UNORM_INT_101010: "UNORM_INT_101010",
	C.CL_SIGNED_INT8: "SIGNED_INT8", C.CL_SIGNED_INT16: "SIGNED_INT16", C.CL_SIGNED_INT32: "SIGNED_INT32",
	C.CL_UNSIGNED_INT8: "UNSIGNED_INT8", C.CL_UNSIGNED_INT16: "UNSIGNED_INT16", C.CL_UNSIGNED_INT32: "UNSIGNED_INT32",
	C.CL_HALF_FLOAT: "HALF_FLOAT", C.CL_FLOAT: "FLOAT", C.CL_UNORM_INT_101010_2: "UNORM_INT_101010_2",
}

// SupportedImageFormats lists the image formats the context's devices
// support for an image type (cl.MemObjectImage2D or cl.MemObjectImage3D)
// created with flags, as PyOpenCL's cl.get_supported_image_formats does.
func SupportedImageFormats(ctx *Context, flags MemFlag, imageType string) []ImageFormat {
	const call = "clGetSupportedImageFormats"
	cid := ctx.handle(call)
	var t C.cl_mem_object_type
	switch imageType {
	case MemObjectImage2D:
		t = C.CL_MEM_OBJECT_IMAGE2D
	case MemObjectImage3D:
		t = C.CL_MEM_OBJECT_IMAGE3D
	default:
		refuse(call, "CL_INVALID_VALUE", fmt.Sprintf("image type %q", imageType), "use cl.MemObjectImage2D or cl.MemObjectImage3D")
	}
	var n C.cl_uint
	rc := C.clGetSupportedImageFormats(cid, C.cl_mem_flags(flags), t, 0, nil, &n)
	if rc != C.CL_SUCCESS {
		fail(call, int(rc), imageType)
	}
	if n == 0 {
		return nil
	}
	fs := make([]C.cl_image_format, n)
	if rc := C.clGetSupportedImageFormats(cid, C.cl_mem_flags(flags), t, n, &fs[0], nil); rc != C.CL_SUCCESS {
		fail(call, int(rc), imageType)
	}
	runtime.KeepAlive(ctx)
	out := make([]ImageFormat, n)
	for i, f := range fs {
		o, ok := channelOrders[f.image_channel_order]
		if !ok {
			o = fmt.Sprintf("<unknown channel order 0x%x>", uint32(f.image_channel_order))
		}
		ty, ok := channelTypes[f.image_channel_data_type]
		if !ok {
			ty = fmt.Sprintf("<unknown channel data type %d>", uint32(f.image_channel_data_type))
		}
		out[i] = ImageFormat{ChannelOrder: o, ChannelType: ty}
	}
	return out
}
