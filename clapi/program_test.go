package clapi

import (
	"testing"
)

const addSrc = `
__kernel void axpy(__global float *y, __global const float *x, float a, int n) {
	int i = get_global_id(0);
	if (i < n) y[i] += a * x[i];
}
__kernel void scale(__global double *x, double s, __local double *tmp) {
	int i = get_global_id(0);
	tmp[get_local_id(0)] = x[i] * s;
	barrier(CLK_LOCAL_MEM_FENCE);
	x[i] = tmp[get_local_id(0)];
}
`

func TestKernelRuns(t *testing.T) {
	ctx, q := testQueue(t)
	prog := BuildProgram(ctx, addSrc, "")
	defer prog.Release()
	names := prog.KernelNames()
	if len(names) != 2 {
		t.Fatalf("kernel names %v", names)
	}
	const n = 1000
	x := RandomFloat32(n, 4)
	y := RandomFloat32(n, 5)
	xb := NewBuffer(ctx, ReadOnly|CopyHostPtr, x)
	yb := NewBuffer(ctx, ReadWrite|CopyHostPtr, y)
	k := prog.Kernel("axpy")
	if k.NumArgs() != 4 || k.Name() != "axpy" {
		t.Fatalf("kernel %s", k)
	}
	k.SetArgs(yb, xb, float32(2), int32(n))
	ev := EnqueueKernel(q, k, []int{1024}, nil)
	ev.Wait()
	if ev.DeviceTime() < 0 {
		t.Fatal("negative kernel time")
	}
	got := make([]float32, n)
	EnqueueCopy(q, got, yb)
	want := make([]float32, n)
	for i := range want {
		want[i] = y[i] + 2*x[i]
	}
	if d := MaxAbsDiffFloat32(got, want); d > 1e-6 {
		t.Fatalf("axpy result off by %g", d)
	}

	// __local memory and a WaitFor chain.
	s := prog.Kernel("scale")
	d := []float64{1, 2, 3, 4, 5, 6, 7, 8}
	db := NewBuffer(ctx, ReadWrite|CopyHostPtr, d)
	s.SetArgs(db, float64(3), Local(8*4))
	e1 := EnqueueKernel(q, s, []int{8}, []int{4})
	s2 := prog.Kernel("scale")
	s2.SetArgs(db, float64(0.5), Local(8*4))
	e2 := EnqueueKernel(q, s2, []int{8}, []int{4}, WaitFor(e1))
	e2.Wait()
	gd := make([]float64, 8)
	EnqueueCopy(q, gd, db)
	for i := range d {
		if gd[i] != d[i]*1.5 {
			t.Fatalf("scale: got %v", gd)
		}
	}
}

func TestKernelArgumentErrors(t *testing.T) {
	ctx, q := testQueue(t)
	prog := BuildProgram(ctx, addSrc, "-cl-fast-relaxed-math")
	k := prog.Kernel("axpy")
	b := NewBufferSize(ctx, ReadWrite, 64)
	mustFail(t, func() { k.SetArg(3, 5) }, "int32(x) or int64(x)", "fixed size")
	mustFail(t, func() { k.SetArg(2, float64(1)) }, "float64", "pass float32(x)")
	mustFail(t, func() { k.SetArg(3, int64(1)) }, "pass int32(x)")
	mustFail(t, func() { k.SetArg(0, float32(1)) }, "is a pointer")
	mustFail(t, func() { k.SetArg(2, b) }, "not a __global")
	mustFail(t, func() { k.SetArg(0, Local(16)) }, "not a __local")
	mustFail(t, func() { k.SetArg(4, int32(1)) }, "CL_INVALID_ARG_INDEX")
	mustFail(t, func() { k.SetArg(0, "s") }, "string")
	mustFail(t, func() { k.SetArg(0, nil) }, "nil")
	mustFail(t, func() { k.SetArgs(b, b) }, "takes 4 arguments, got 2", "axpy(")
	k.SetArg(0, b)
	mustFail(t, func() { EnqueueKernel(q, k, []int{16}, nil) }, "argument 1", "never set")
	k.SetArgs(b, b, float32(1), int32(16))
	mustFail(t, func() { EnqueueKernel(q, k, nil, nil) }, "CL_INVALID_WORK_DIMENSION")
	mustFail(t, func() { EnqueueKernel(q, k, []int{16}, []int{4, 4}) }, "local has 2")
	mustFail(t, func() { EnqueueKernel(q, k, []int{0}, nil) }, "CL_INVALID_GLOBAL_WORK_SIZE")
	mustFail(t, func() { EnqueueKernel(q, k, []int{16}, []int{3}) }, "clEnqueueNDRangeKernel")
	mustFail(t, func() { prog.Kernel("nope") }, "CL_INVALID_KERNEL_NAME", "axpy")
	EnqueueKernel(q, k, []int{16}, nil).Wait()
	b.Release()
	mustFail(t, func() { EnqueueKernel(q, k, []int{16}, nil) }, "released")
	k.Release()
	k.Release()
	mustFail(t, func() { EnqueueKernel(q, k, []int{16}, nil) }, "CL_INVALID_KERNEL")
}

func TestBuildFailureCarriesLog(t *testing.T) {
	ctx, _ := testQueue(t)
	e := mustFail(t, func() { BuildProgram(ctx, "__kernel void f(__global float *x) { x[0] = undefined_name; }", "") },
		"CL_BUILD_PROGRAM_FAILURE", "build log for", "undefined_name")
	if e.Code != -11 {
		t.Fatalf("code %d", e.Code)
	}
	mustFail(t, func() { BuildProgram(ctx, "  ", "") }, "empty")
	mustFail(t, func() { BuildProgram(ctx, "__kernel void f() {}", "-no-such-option") }, "clBuildProgram")
}
