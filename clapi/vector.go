package clapi

import (
	"reflect"
	"strconv"
	"unsafe"
)

// vectorElems maps Go element kinds to OpenCL C scalar names.
var vectorElems = map[reflect.Kind]string{
	reflect.Float32: "float", reflect.Float64: "double", reflect.Int32: "int", reflect.Uint32: "uint",
	reflect.Int64: "long", reflect.Uint64: "ulong", reflect.Int16: "short", reflect.Uint16: "ushort",
	reflect.Int8: "char", reflect.Uint8: "uchar",
}

// vectorArg reads a Go array of 2, 3, 4, 8 or 16 sized numbers, or a
// complex64/complex128, as the OpenCL vector type it matches: [4]float32
// is float4, [2]int32 is int2, complex64 is float2 (real, imaginary) and
// complex128 is double2. A 3-element vector takes the space of 4, as in
// OpenCL C. ok is false for anything else.
func vectorArg(v any) (raw []byte, clType string, ok bool) {
	switch c := v.(type) {
	case complex64:
		f := [2]float32{real(c), imag(c)}
		return unsafe.Slice((*byte)(unsafe.Pointer(&f[0])), 8), "float2", true
	case complex128:
		f := [2]float64{real(c), imag(c)}
		return unsafe.Slice((*byte)(unsafe.Pointer(&f[0])), 16), "double2", true
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Array {
		return nil, "", false
	}
	base, known := vectorElems[rv.Type().Elem().Kind()]
	n := rv.Len()
	if !known || (n != 2 && n != 3 && n != 4 && n != 8 && n != 16) {
		return nil, "", false
	}
	elem := int(rv.Type().Elem().Size())
	slots := n
	if n == 3 {
		slots = 4
	}
	raw = make([]byte, elem*slots)
	cp := reflect.New(rv.Type())
	cp.Elem().Set(rv)
	copy(raw, unsafe.Slice((*byte)(cp.UnsafePointer()), elem*n))
	return raw, base + strconv.Itoa(n), true
}
