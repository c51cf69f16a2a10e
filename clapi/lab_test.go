package clapi

import (
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/seed43a1e1ab/gocl/clapi/viz"
)

func TestSubBuffer(t *testing.T) {
	ctx, q := testQueue(t)
	a := RandomSeed(4096, 1)
	b := NewBuffer(ctx, ReadWrite|CopyHostPtr, a)
	align := q.dev.BaseAlignBytes
	if align <= 0 {
		t.Fatalf("base alignment %d", align)
	}
	s := b.Sub(align, 8*64)
	got := make([]float64, 64)
	EnqueueCopy(q, got, s)
	if !Equal(got, a[align/8:align/8+64]) {
		t.Error("the sub-buffer does not read its part of the parent")
	}
	if !strings.Contains(s.String(), "at offset") {
		t.Errorf("String %q", s.String())
	}
	mustFail(t, func() { b.Sub(1, 8) }, "CL_MISALIGNED_SUB_BUFFER_OFFSET", "alignment")
	mustFail(t, func() { b.Sub(0, 8*4097) }, "do not fit")
	mustFail(t, func() { s.Sub(0, 8) }, "itself a sub-buffer")
	b.Release()
	mustFail(t, func() { EnqueueCopy(q, got, s) }, "parent buffer was released")
}

func TestRectBox(t *testing.T) {
	// A 2x3 box at (1, 1) of rows 4 bytes apart ends at byte 1*4+1 + 2*4 + 2 = 15.
	row, slice, first, end := box("t", "buffer", [3]int{1, 1, 0}, [3]int{2, 3, 1}, 4, 0, 15)
	if row != 4 || slice != 12 || first != 5 || end != 15 {
		t.Errorf("box: row %d slice %d first %d end %d", row, slice, first, end)
	}
	mustFail(t, func() { box("t", "buffer", [3]int{1, 1, 0}, [3]int{2, 3, 1}, 4, 0, 14) }, "reaches byte 15")
	mustFail(t, func() { box("t", "buffer", [3]int{}, [3]int{8, 1, 1}, 4, 0, 100) }, "row pitch 4 is less")
}

func TestVectorArg(t *testing.T) {
	for _, c := range []struct {
		v    any
		typ  string
		size int
	}{
		{[2]float32{1, 2}, "float2", 8}, {[4]float32{}, "float4", 16}, {[3]int32{}, "int3", 16}, {[2]int32{}, "int2", 8},
		{[16]uint8{}, "uchar16", 16}, {complex64(1i), "float2", 8}, {complex128(1), "double2", 16}, {[8]float64{}, "double8", 64},
	} {
		raw, typ, ok := vectorArg(c.v)
		if !ok || typ != c.typ || len(raw) != c.size {
			t.Errorf("%T: %q %d bytes ok=%v, want %q %d", c.v, typ, len(raw), ok, c.typ, c.size)
		}
	}
	raw, _, _ := vectorArg(complex64(complex(1.5, -2)))
	var f [2]float32
	copy((*[8]byte)(unsafePointer(&f))[:], raw)
	if f != [2]float32{1.5, -2} {
		t.Errorf("complex64 laid out as %v", f)
	}
	for _, v := range []any{[5]float32{}, [2]int{}, float32(1), []float32{1, 2}} {
		if _, _, ok := vectorArg(v); ok {
			t.Errorf("%T taken as a vector", v)
		}
	}
}

func TestInfo(t *testing.T) {
	_, q := testQueue(t)
	d := q.dev
	if got := d.GetInfo("CL_DEVICE_MAX_COMPUTE_UNITS").(int64); got != int64(d.ComputeUnits) {
		t.Errorf("MAX_COMPUTE_UNITS %d, want %d", got, d.ComputeUnits)
	}
	if got := d.GetInfo("NAME").(string); got != d.Name {
		t.Errorf("NAME %q", got)
	}
	if sizes := d.GetInfo("MAX_WORK_ITEM_SIZES").([]int64); len(sizes) != 3 || sizes[0] <= 0 {
		t.Errorf("MAX_WORK_ITEM_SIZES %v", sizes)
	}
	info := d.Info()
	if v, ok := info.Get("GLOBAL_MEM_SIZE"); !ok || v == "0" {
		t.Errorf("GLOBAL_MEM_SIZE %q %v", v, ok)
	}
	if !strings.HasPrefix(info.String(), d.Name) || !strings.Contains(info.String(), "\nVENDOR: ") {
		t.Errorf("String:\n%s", info.String())
	}
	mustFail(t, func() { d.GetInfo("WARP_SIZE_XX") }, "no parameter")
	if f := (Flags{Value: 1 | 4 | 0x100, names: fpConfig}); f.String() != "DENORM|ROUND_TO_NEAREST|0x100" {
		t.Errorf("Flags %q", f.String())
	}
	if p := d.Platform.GetInfo("NAME").(string); p != d.Platform.Name {
		t.Errorf("platform NAME %q", p)
	}
	if len(SupportedImageFormats(q.ctx, ReadOnly, MemObjectImage2D)) == 0 && d.GetInfo("IMAGE_SUPPORT").(bool) {
		t.Error("the device supports images but lists no 2D format")
	}
}

func TestKernelCardAndStages(t *testing.T) {
	ctx, q := testQueue(t)
	k := BuildProgram(ctx, "__kernel void z(__global int *x) { x[get_global_id(0)] = 0; }", "").Kernel("z")
	b := NewBufferSize(ctx, ReadWrite, 4*64)
	k.SetArgs(b)
	ev := EnqueueKernel(q, k, []int{32}, []int{8}, GlobalOffset(32))
	c := ev.Card()
	if c.Kernel != "z" || len(c.Global) != 1 || c.Global[0] != 32 || c.Local[0] != 8 || c.Offset[0] != 32 || c.DeviceTime <= 0 {
		t.Errorf("kernel card %+v", c)
	}
	text := ev.String()
	for _, w := range []string{"kernel z", "global size", "32", "local size", "8", "Kernel z over 32 work-items in work-groups of 8"} {
		if !strings.Contains(text, w) {
			t.Errorf("card lacks %q:\n%s", w, text)
		}
	}
	if strings.Contains(text, "0 B") || strings.Contains(text, "copy") {
		t.Errorf("a kernel card talks of copies:\n%s", text)
	}
	if !c.Stages {
		t.Skip("this device reports no queued/submitted stages")
	}
	if !strings.Contains(text, "queued") || !strings.Contains(text, "submitted") {
		t.Errorf("card lacks its stages:\n%s", text)
	}
	wi := k.WorkGroupInfo(nil)
	if wi.WorkGroupSize <= 0 || !strings.Contains(wi.HTML(), "PREFERRED_WORK_GROUP_SIZE_MULTIPLE") {
		t.Errorf("work-group info %+v", wi)
	}
	mustFail(t, func() { EnqueueKernel(q, k, []int{32}, nil, GlobalOffset(1, 2)) }, "CL_INVALID_GLOBAL_OFFSET")
}

func TestWaitText(t *testing.T) {
	c := viz.CopyCard{Command: "clEnqueueWriteBuffer", Direction: HostToDevice, HostMemory: "pinned", Bytes: 1 << 26, NonBlocking: true,
		HostBlocked: 20 * time.Microsecond, DeviceTime: 10 * time.Millisecond, Status: "complete", Stages: true, QueuedWait: 30 * time.Millisecond, SubmitWait: time.Millisecond}
	if v := viz.Verdict(c); !strings.Contains(v, "waited 31.0 ms") || !strings.Contains(v, "30.0 ms queued") {
		t.Errorf("verdict %q", v)
	}
	c.QueuedWait = 0
	c.SubmitWait = 10 * time.Microsecond
	if v := viz.Verdict(c); strings.Contains(v, "waited") {
		t.Errorf("a short wait is mentioned: %q", v)
	}
}

func unsafePointer(p *[2]float32) unsafe.Pointer { return unsafe.Pointer(p) }

func TestRecording(t *testing.T) {
	ctx, q := testQueue(t)
	a := RandomSeed(512, 2)
	b := NewBufferSize(ctx, ReadWrite, 8*512)
	EnqueueCopy(q, b, a) // before: not recorded
	r := Record()
	if CurrentRecording() != r {
		t.Fatal("Record did not start a recording")
	}
	w := EnqueueCopy(q, b, a, NonBlocking)
	w.Wait()
	r2 := Record() // replaces r, which stops
	EnqueueCopy(q, a, b)
	r2.Stop()
	r2.Stop()
	EnqueueCopy(q, a, b) // after: not recorded
	if CurrentRecording() != nil {
		t.Error("a recording still runs after Stop")
	}
	if ev := r.Events(); len(ev) != 1 || ev[0] != w {
		t.Errorf("first recording holds %d events", len(ev))
	}
	if ev := r2.Events(); len(ev) != 1 || ev[0].Direction() != DeviceToHost {
		t.Errorf("second recording holds %v", ev)
	}
	if r.Calls() != 2 { // the write and its Wait
		t.Errorf("first recording: %d calls, want 2", r.Calls())
	}
	tl := r.Timeline()
	if len(tl.Spans) != 3 || !strings.Contains(r.String(), "stopped") { // two host spans, one device span
		t.Errorf("timeline spans %d, %s", len(tl.Spans), r.String())
	}
	// Calibration markers are gocl's own: they never show in a recording.
	r3 := Record()
	Timeline(w).SVG()
	r3.Stop()
	if len(r3.Events()) != 0 {
		t.Errorf("calibration was recorded: %d events", len(r3.Events()))
	}
	mustFail(t, func() { r3.Timeline() }, "nothing was recorded")
}

// TestNoSVMSaysSo gives NewSVM a context whose device reports no SVM, as
// NVIDIA's OpenCL does, and expects the refusal to say so.
func TestNoSVMSaysSo(t *testing.T) {
	ctx, _ := testQueue(t)
	d := *ctx.devices[0]
	d.SVM = Flags{names: svmCaps}
	noSVM := &Context{id: ctx.id, devices: []*Device{&d}}
	mustFail(t, func() { NewSVM(noSVM, ReadWrite, 4096) }, "no shared virtual memory", "CL_DEVICE_SVM_CAPABILITIES is 0", "cl.NewPinnedHost")
	if s := d.SVMSupport(); !strings.HasPrefix(s, "none") {
		t.Errorf("SVMSupport %q", s)
	}
	if ctx.devices[0].SVM.Value != 0 {
		s := NewSVM(ctx, ReadWrite, 4096)
		s.Free()
		s.Free()
		mustFail(t, func() { s.Bytes() }, "freed")
	}
}
