package clapi

import (
	"fmt"
	"testing"
)

func TestWriteReadRoundTrip(t *testing.T) {
	ctx, q := testQueue(t)
	a := RandomSeed(1000, 1)
	buf := NewBufferSize(ctx, ReadWrite, 8*len(a))
	defer buf.Release()
	ev := EnqueueCopy(q, buf, a)
	if ev.Direction() != HostToDevice || ev.Bytes() != 8000 || ev.Status() != "complete" {
		t.Fatalf("write event: dir %q bytes %d status %q", ev.Direction(), ev.Bytes(), ev.Status())
	}
	b := make([]float64, len(a))
	ev = EnqueueCopy(q, b, buf)
	if ev.Direction() != DeviceToHost {
		t.Fatalf("read direction %q", ev.Direction())
	}
	if !Equal(a, b) {
		t.Fatal("read back differs from what was written")
	}
}

func TestCopyTypesAndOffsets(t *testing.T) {
	ctx, q := testQueue(t)
	buf := NewBufferSize(ctx, ReadWrite, 64)
	defer buf.Release()
	src := []int32{1, 2, 3, 4, 5, 6, 7, 8}
	EnqueueCopy(q, buf, src)
	// Read elements 2..5 into the middle of dst.
	dst := make([]int32, 8)
	EnqueueCopy(q, dst, buf, SrcOffset(8), DstOffset(4), ByteCount(16))
	want := []int32{0, 3, 4, 5, 6, 0, 0, 0}
	if !EqualInt32(dst, want) {
		t.Fatalf("got %v, want %v", dst, want)
	}
	// Write part of a host slice at a buffer offset.
	EnqueueCopy(q, buf, []int32{-1, -2, -3}, SrcOffset(4), DstOffset(28), ByteCount(8))
	EnqueueCopy(q, dst, buf, ByteCount(32))
	want = []int32{1, 2, 3, 4, 5, 6, 7, -2}
	if !EqualInt32(dst, want) {
		t.Fatalf("got %v, want %v", dst, want)
	}
	// Every supported element type round-trips through a buffer.
	for _, c := range []struct {
		in, out any
	}{
		{[]float32{1.5, -2}, make([]float32, 2)},
		{[]uint32{1, 1 << 31}, make([]uint32, 2)},
		{[]int64{-1, 1 << 40}, make([]int64, 2)},
		{[]uint64{1, 1 << 63}, make([]uint64, 2)},
		{[]int16{-3, 4}, make([]int16, 2)},
		{[]uint16{3, 65535}, make([]uint16, 2)},
		{[]int8{-1, 7}, make([]int8, 2)},
		{[]byte{9, 255}, make([]byte, 2)},
	} {
		EnqueueCopy(q, buf, c.in)
		EnqueueCopy(q, c.out, buf)
		if fmtSlice(c.in) != fmtSlice(c.out) {
			t.Errorf("%T: got %v, want %v", c.in, c.out, c.in)
		}
	}
}

func fmtSlice(v any) string { return fmt.Sprint(v) }

func TestBufferToBufferFillMigrate(t *testing.T) {
	ctx, q := testQueue(t)
	a := NewBufferSize(ctx, ReadWrite, 80)
	b := NewBufferSize(ctx, ReadWrite, 80)
	EnqueueFill(q, a, float64(2.5))
	EnqueueFill(q, a, float64(-1), Offset(16), ByteCount(16))
	ev := EnqueueCopy(q, b, a)
	if ev.Direction() != DeviceToDevice || ev.Status() != "complete" {
		t.Fatalf("copy: %q %q", ev.Direction(), ev.Status())
	}
	EnqueueMigrate(q, []*Buffer{a, b})
	EnqueueMigrate(q, []*Buffer{b}, ToHost)
	got := make([]float64, 10)
	EnqueueCopy(q, got, b)
	want := []float64{2.5, 2.5, -1, -1, 2.5, 2.5, 2.5, 2.5, 2.5, 2.5}
	if !Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	// Copy within one buffer without overlap, and refuse an overlap.
	EnqueueCopy(q, b, b, SrcOffset(0), DstOffset(40), ByteCount(40))
	EnqueueCopy(q, got, b)
	if !Equal(got[5:], want[:5]) {
		t.Fatalf("intra-buffer copy: got %v", got)
	}
	mustFail(t, func() { EnqueueCopy(q, b, b, DstOffset(8), ByteCount(16)) }, "CL_MEM_COPY_OVERLAP")
	mustFail(t, func() { EnqueueFill(q, a, 3) }, "int32(x) or int64(x)")
	mustFail(t, func() { EnqueueFill(q, a, float64(1), Offset(4)) }, "multiples")
	mustFail(t, func() { EnqueueFill(q, a, "x") }, "string")
	mustFail(t, func() { EnqueueMigrate(q, nil) }, "no buffer")
}

func TestCopyRefusesBadInput(t *testing.T) {
	ctx, q := testQueue(t)
	buf := NewBufferSize(ctx, ReadWrite, 16)
	mustFail(t, func() { EnqueueCopy(q, buf, make([]float64, 3)) }, "clEnqueueWriteBuffer", "does not fit", "16-byte buffer")
	mustFail(t, func() { EnqueueCopy(q, make([]float64, 3), buf) }, "clEnqueueReadBuffer", "does not fit")
	mustFail(t, func() { EnqueueCopy(q, buf, make([]float64, 2), DstOffset(8)) }, "does not fit")
	mustFail(t, func() { EnqueueCopy(q, buf, make([]float64, 2), SrcOffset(16)) }, "past the end")
	mustFail(t, func() { EnqueueCopy(q, buf, make([]float64, 2), ByteCount(32)) }, "do not fit")
	mustFail(t, func() { EnqueueCopy(q, buf, []float64{}) }, "empty")
	mustFail(t, func() { EnqueueCopy(q, buf, []int{1, 2}) }, "[]int", "[]int32", "[]int64")
	mustFail(t, func() { EnqueueCopy(q, buf, []bool{true}) }, "not a supported host slice")
	mustFail(t, func() { EnqueueCopy(q, buf, "text") }, "string")
	mustFail(t, func() { EnqueueCopy(q, make([]byte, 4), make([]byte, 4)) }, "host memory", "copy(dst, src)")
	mustFail(t, func() { EnqueueCopy(q, buf, make([]byte, 4), Offset(1)) }, "does not apply")
	mustFail(t, func() { EnqueueCopy(q, buf, make([]byte, 4), ByteCount(0)) }, "positive")
	mustFail(t, func() { EnqueueCopy(q, buf, make([]byte, 4), SrcOffset(-1)) }, "negative")
	var nilBuf *Buffer
	mustFail(t, func() { EnqueueCopy(q, nilBuf, make([]byte, 4)) }, "nil")
	other := CreateSomeContext()
	defer other.Release()
	ob := NewBufferSize(other, ReadWrite, 16)
	mustFail(t, func() { EnqueueCopy(q, ob, make([]byte, 4)) }, "CL_INVALID_CONTEXT")
	buf.Release()
	buf.Release() // idempotent
	mustFail(t, func() { EnqueueCopy(q, buf, make([]byte, 4)) }, "CL_INVALID_MEM_OBJECT", "released")
	q2 := NewQueue(ctx)
	q2.Release()
	mustFail(t, func() { EnqueueCopy(q2, ob, make([]byte, 4)) }, "CL_INVALID_COMMAND_QUEUE", "released")
}

func TestMapUnmap(t *testing.T) {
	ctx, q := testQueue(t)
	buf := NewBuffer(ctx, ReadWrite|CopyHostPtr, []float32{1, 2, 3, 4})
	m := EnqueueMap(q, buf, MapRead|MapWrite, Offset(4), ByteCount(8))
	v := m.Float32s()
	if len(v) != 2 || v[0] != 2 || v[1] != 3 {
		t.Fatalf("mapped view %v", v)
	}
	v[1] = 30
	if m.Unmap() == nil {
		t.Fatal("first Unmap returned no event")
	}
	if m.Unmap() != nil {
		t.Fatal("second Unmap did something")
	}
	// The view is dead: copies from it are refused, not performed.
	mustFail(t, func() { EnqueueCopy(q, buf, v) }, "closed or unmapped")
	mustFail(t, func() { m.Float32s() }, "closed")
	got := make([]float32, 4)
	EnqueueCopy(q, got, buf)
	if !EqualFloat32(got, []float32{1, 2, 30, 4}) {
		t.Fatalf("after unmap: %v", got)
	}
	mustFail(t, func() { EnqueueMap(q, buf, 0) }, "map flags")
}
