package clapi

import (
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
