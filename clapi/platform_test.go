package clapi

import (
	"strings"
	"testing"
)

func TestDiscovery(t *testing.T) {
	testQueue(t)
	plats := Platforms()
	for _, p := range plats {
		if p.Name == "" || !strings.HasPrefix(p.Version, "OpenCL ") {
			t.Errorf("platform %+v", p)
		}
		for _, d := range p.Devices() {
			if d.Name == "" || d.GlobalMemBytes <= 0 || d.MaxAllocBytes <= 0 || d.ComputeUnits <= 0 || d.Platform != p {
				t.Errorf("device %+v", d)
			}
			if d.MaxAllocBytes > d.GlobalMemBytes {
				t.Errorf("%s: max allocation %d above global memory %d", d.Name, d.MaxAllocBytes, d.GlobalMemBytes)
			}
			if !strings.Contains(d.String(), d.Name) || !strings.Contains(d.HTML(), "<table") {
				t.Errorf("device renderings lack the name or a table")
			}
			if d.NVAttributes != d.HasExtension("cl_nv_device_attribute_query") {
				t.Error("NVAttributes disagrees with the extension list")
			}
		}
	}
	if !strings.Contains(plats.String(), plats[0].Name) || !strings.Contains(plats.HTML(), "0:0") {
		t.Errorf("platform list renderings: %s", plats)
	}
}

func TestSelectDevice(t *testing.T) {
	testQueue(t)
	plats := Platforms()
	d0 := plats[0].Devices()[0]
	pick := func(sel string) (*Device, string) { return selectDevice(plats, sel) }
	for _, sel := range []string{"0", "0:0", " 0 : 0 ", strings.ToUpper(plats[0].Name[:4]), plats[0].Name[:4] + ":0",
		plats[0].Name[:4] + ":" + strings.ToLower(d0.Name[:3]), strings.ToLower(d0.Name)} {
		d, why := pick(sel)
		if d == nil || d.id != d0.id {
			t.Errorf("selector %q: got %v (%s)", sel, d, why)
		}
	}
	for _, sel := range []string{"9", "0:9", "no-such-vendor", "0:no-such-device", "no-such:0"} {
		if d, why := pick(sel); d != nil || why == "" {
			t.Errorf("selector %q chose %v", sel, d)
		}
	}
	t.Setenv("GOCL_CTX", "no-such-vendor")
	mustFail(t, func() { CreateSomeContext() }, "GOCL_CTX", "no-such-vendor", "cl.Platforms()")
	t.Setenv("GOCL_CTX", "")
	t.Setenv("PYOPENCL_CTX", "0:0")
	ctx := CreateSomeContext()
	if ctx.Device().id != d0.id || !strings.Contains(ctx.String(), d0.Name) {
		t.Errorf("PYOPENCL_CTX=0:0 chose %s", ctx)
	}
	ctx.Release()
	ctx.Release()
	mustFail(t, func() { NewQueue(ctx) }, "CL_INVALID_CONTEXT", "released")
	mustFail(t, func() { NewContext() }, "no device")
}

func TestQueueFlags(t *testing.T) {
	ctx, q := testQueue(t)
	if !q.Profiling() || q.OutOfOrder() || !strings.Contains(q.String(), "profiling") {
		t.Errorf("queue %s", q)
	}
	mustFail(t, func() { NewQueue(ctx, QueueFlag(1<<20)) }, "unknown queue flags")
	q.Flush()
	q.Finish()
}

func TestBufferFlags(t *testing.T) {
	ctx, q := testQueue(t)
	for _, f := range []MemFlag{ReadWrite, ReadOnly, WriteOnly, AllocHostPtr, ReadWrite | HostWriteOnly, ReadWrite | HostReadOnly, ReadWrite | HostNoAccess} {
		b := NewBufferSize(ctx, f, 64)
		if b.Size() != 64 || b.Flags() != f || !strings.Contains(b.String(), "64 bytes") {
			t.Errorf("buffer %s", b)
		}
		b.Release()
	}
	b := NewBuffer(ctx, ReadOnly|CopyHostPtr, []float64{1, 2})
	got := make([]float64, 2)
	EnqueueCopy(q, got, b)
	if got[0] != 1 || got[1] != 2 {
		t.Fatalf("CopyHostPtr buffer holds %v", got)
	}
	mustFail(t, func() { NewBufferSize(ctx, ReadWrite, 0) }, "CL_INVALID_BUFFER_SIZE")
	mustFail(t, func() { NewBufferSize(ctx, ReadWrite, -8) }, "CL_INVALID_BUFFER_SIZE")
	mustFail(t, func() { NewBufferSize(ctx, ReadWrite, int(ctx.Device().MaxAllocBytes)+1) }, "max allocation")
	mustFail(t, func() { NewBufferSize(ctx, ReadWrite|ReadOnly, 8) }, "exclude each other")
	mustFail(t, func() { NewBufferSize(ctx, HostReadOnly|HostNoAccess, 8) }, "exclude each other")
	mustFail(t, func() { NewBufferSize(ctx, CopyHostPtr, 8) }, "needs a host slice")
	mustFail(t, func() { NewBufferSize(ctx, MemFlag(1<<40), 8) }, "unknown flag")
	mustFail(t, func() { NewBuffer(ctx, ReadWrite, nil) }, "NewBufferSize")
	mustFail(t, func() { NewBuffer(ctx, CopyHostPtr, nil) }, "needs a host slice")
	mustFail(t, func() { NewBuffer(ctx, ReadWrite, []float64{1}) }, "do not use it")
	mustFail(t, func() { NewBuffer(ctx, UseHostPtr|CopyHostPtr, []float64{1}) }, "excludes")
	mustFail(t, func() { NewBuffer(ctx, CopyHostPtr, []int{1}) }, "[]int32")
	mustFail(t, func() { NewBuffer(ctx, CopyHostPtr, 3.0) }, "not host memory")
	// Host access flags are enforced by OpenCL.
	hn := NewBufferSize(ctx, ReadWrite|HostNoAccess, 16)
	mustFail(t, func() { EnqueueCopy(q, hn, make([]byte, 16)) }, "clEnqueueWriteBuffer")
	if s := (ReadWrite | CopyHostPtr).String(); s != "cl.ReadWrite|cl.CopyHostPtr" {
		t.Errorf("flag string %q", s)
	}
}
