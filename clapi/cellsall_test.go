package clapi_test

import (
	"strings"
	"testing"
)

// TestEveryCallFromCells drives the binding's whole surface through the
// interpreter, as notebook cells do: yaegi reaches compiled code through
// generated symbol tables (variadic options, interfaces, method values), and
// a call that works from Go can still fail there. Each step prints what it
// checked; the cell compares results itself and panics on a mismatch.
func TestEveryCallFromCells(t *testing.T) {
	e := newEngine(t)
	steps := []struct{ name, code, want string }{
		{"discovery", `
plats := cl.Platforms()
dev := plats[0].Devices()[0]
ctx := cl.NewContext(dev)
q := cl.NewQueue(ctx, cl.Profiling)
ooo := cl.NewQueue(ctx, cl.Profiling|cl.OutOfOrder)
fmt.Println(len(plats) > 0, dev.Name != "", q.Profiling(), ooo.OutOfOrder(), strings.Contains(plats.HTML(), "<table"), strings.Contains(dev.HTML(), "<table"))`,
			"true true true true true true"},
		{"buffers and flags", `
n := 4096
src := cl.RandomSeed(n, 7)
for _, f := range []cl.MemFlag{cl.ReadWrite, cl.ReadOnly, cl.WriteOnly, cl.ReadWrite | cl.HostReadOnly, cl.ReadWrite | cl.HostWriteOnly, cl.ReadWrite | cl.HostNoAccess, cl.ReadWrite | cl.AllocHostPtr} {
	b := cl.NewBufferSize(ctx, f, 8*n)
	b.Release()
	b.Release() // idempotent
}
bc := cl.NewBuffer(ctx, cl.ReadWrite|cl.CopyHostPtr, src)
bu := cl.NewBuffer(ctx, cl.ReadWrite|cl.UseHostPtr, cl.RandomSeed(n, 8))
fmt.Println(bc.Size(), bu.Size())`,
			"32768 32768"},
		{"copies in every direction, with offsets and options", `
dst := make([]float64, n)
cl.EnqueueCopy(q, dst, bc)
okRead := cl.Equal(dst, src)
b2 := cl.NewBufferSize(ctx, cl.ReadWrite, 8*n)
cl.EnqueueCopy(q, b2, bc).Wait()
half := make([]float64, n/2)
ev := cl.EnqueueCopy(q, half, b2, cl.NonBlocking, cl.SrcOffset(8*n/2))
ev.Wait()
okHalf := cl.Equal(half, src[n/2:])
part := make([]float64, 8)
cl.EnqueueCopy(q, b2, src[:8], cl.DstOffset(8*100), cl.ByteCount(64))
cl.EnqueueCopy(q, part, b2, cl.SrcOffset(8*100))
f32 := cl.RandomFloat32(64, 3)
b32 := cl.NewBufferSize(ctx, cl.ReadWrite, 4*64)
cl.EnqueueCopy(q, b32, f32)
back32 := make([]float32, 64)
cl.EnqueueCopy(q, back32, b32)
fmt.Println(okRead, okHalf, cl.Equal(part, src[:8]), cl.EqualFloat32(back32, f32), ev.Status(), ev.Bytes(), ev.Direction())`,
			"true true true true complete 16384 device→host"},
		{"fill, migrate, map", `
cl.EnqueueFill(q, b2, 2.5)
cl.EnqueueMigrate(q, []*cl.Buffer{b2})
m := cl.EnqueueMap(q, b2, cl.MapRead|cl.MapWrite)
view := m.Float64s()
allFilled := cl.Sum(view) == 2.5*float64(n)
view[0] = 1
m.Unmap().Wait()
one := make([]float64, 1)
cl.EnqueueCopy(q, one, b2)
fmt.Println(allFilled, one[0], m.Size())`,
			"true 1 32768"},
		{"pinned host memory", `
p := cl.NewPinnedHost(q, 8*n)
pv := p.Float64s()
cl.Fill(pv, 3)
pe := cl.EnqueueCopy(q, b2, p, cl.NonBlocking)
pe.Wait()
check := make([]float64, n)
cl.EnqueueCopy(q, check, b2)
card := pe.Card()
p.Close()
p.Close()
refused := cl.Try(func() { cl.EnqueueCopy(q, b2, pv) })
closedView := cl.Try(func() { p.Bytes() })
fmt.Println(cl.Sum(check) == 3*float64(n), card.HostMemory, closedView != nil, refused != nil)`,
			"true pinned true true"},
		{"events: user events, wait lists, markers, barriers, profiling, cards, timelines", `
ue := cl.NewUserEvent(ctx)
gated := cl.EnqueueCopy(q, dst, bc, cl.NonBlocking, cl.WaitFor(ue))
before := gated.Status()
ue.SetComplete()
cl.WaitAll(gated)
mk := cl.EnqueueMarker(q, cl.WaitFor(gated))
br := cl.EnqueueBarrier(q)
q.Flush()
q.Finish()
mk.Wait()
br.Wait()
select {
case <-gated.Done():
default:
	panic("Done not closed after WaitAll")
}
tl := cl.Timeline(gated, ev)
fmt.Println(before != "complete", gated.End() >= gated.Start(), gated.DeviceTime() >= 0, gated.HostBlocked() >= 0,
	strings.Contains(gated.HTML(), "gocl-event-card"), strings.Contains(tl.SVG(), "<svg"), strings.Contains(tl.Table(), "<table"))`,
			"true true true true true true true"},
		{"programs and kernels", `
prog := cl.BuildProgram(ctx, "__kernel void axpy(__global float *y, __global const float *x, float a, int n, __local float *tmp) { int i = get_global_id(0); if (i < n) y[i] += a * x[i]; }", "")
k := prog.Kernel("axpy")
xs := cl.RandomFloat32(1024, 1)
ys := make([]float32, 1024)
bx := cl.NewBuffer(ctx, cl.ReadOnly|cl.CopyHostPtr, xs)
by := cl.NewBuffer(ctx, cl.ReadWrite|cl.CopyHostPtr, ys)
k.SetArgs(by, bx, float32(2), int32(1024), cl.Local(64))
kev := cl.EnqueueKernel(q, k, []int{1024}, nil)
cl.EnqueueCopy(q, ys, by, cl.WaitFor(kev))
want := make([]float32, 1024)
for i := range xs { want[i] = 2 * xs[i] }
intRefused := cl.Try(func() { k.SetArg(3, 1024) })
buildErr := cl.Try(func() { cl.BuildProgram(ctx, "__kernel void broken( {", "") })
fmt.Println(cl.MaxAbsDiffFloat32(ys, want) < 1e-6, prog.KernelNames(), k.NumArgs(), strings.Contains(intRefused.Error(), "int32"), buildErr != nil)`,
			"true [axpy] 5 true true"},
		{"mistakes are refused, not crashes", `
var errs []string
for _, f := range []func(){
	func() { cl.EnqueueCopy(q, bc, make([]float64, n+1)) },        // larger than the buffer
	func() { cl.EnqueueCopy(q, dst, src) },                         // host to host
	func() { cl.EnqueueCopy(q, bc, []int{1, 2}) },                  // Go int
	func() { cl.NewBufferSize(ctx, cl.ReadWrite, 0) },              // zero size
	func() { r := cl.NewBufferSize(ctx, cl.ReadWrite, 8); r.Release(); cl.EnqueueCopy(q, dst[:1], r) }, // released
} {
	if err := cl.Try(f); err != nil {
		errs = append(errs, "refused")
	}
}
fmt.Println(errs)`,
			"[refused refused refused refused refused]"},
	}
	for _, s := range steps {
		_, out := run(t, e, s.code)
		// The last line is the cell's own; C libraries may print before it
		// (PoCL's compiler reports the broken kernel on stderr).
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if got := lines[len(lines)-1]; got != s.want {
			t.Errorf("%s: cell printed %q, want %q", s.name, got, s.want)
		}
	}
}
