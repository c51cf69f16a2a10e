package clapi_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed43a1e1ab/gocl/clapi"
)

// TestLabFromCells drives issue 12's OpenCL from cells: sub-buffers,
// rectangular copies, global offsets, vector arguments, get_info in full,
// work-group info, maps in both directions, SVM, and a recording saved as
// a Chrome trace. Each cell checks its own results and prints a line.
func TestLabFromCells(t *testing.T) {
	e := newEngine(t)
	dir := t.TempDir()
	if d := os.Getenv("GOCL_TRACE_DIR"); d != "" {
		dir = d // keep the trace to look at
	}
	steps := []struct{ name, code, want string }{
		{"one-line discovery", `
fmt.Println(len(cl.Platforms()[0].Devices()) > 0)
dev0 := cl.Platforms()[0].Devices()[0]
ctx := cl.NewContext(dev0)
q := cl.NewQueue(ctx, cl.Profiling)
fmt.Println(dev0.Name != "")`, "true"},
		{"sub-buffers", `
n := 1 << 14
align := q.Device().BaseAlignBytes
src := cl.RandomSeed(n, 3)
whole := cl.NewBuffer(ctx, cl.ReadWrite|cl.CopyHostPtr, src)
chunk := 8 * n / 4
subs := []*cl.Buffer{}
for i := 0; i < 4; i++ {
	subs = append(subs, whole.Sub(i*chunk, chunk))
}
back := make([]float64, n/4)
cl.EnqueueCopy(q, back, subs[2])
okSub := cl.Equal(back, src[2*n/4:3*n/4])
cl.EnqueueCopy(q, subs[1], make([]float64, n/4))
all := make([]float64, n)
cl.EnqueueCopy(q, all, whole)
misaligned := cl.Try(func() { whole.Sub(align/2+1, 64) })
nested := cl.Try(func() { subs[0].Sub(0, 64) })
fmt.Println(okSub, all[n/4] == 0 && all[n/2] == src[n/2], subs[3].Origin() == 3*chunk, subs[0].Parent() == whole, misaligned != nil, nested != nil)`,
			"true true true true true true"},
		{"rectangular copies", `
// A 16x8 float32 image: copy the 4x3 box at (5, 2) out, through a buffer and back.
img := make([]float32, 16*8)
for i := range img { img[i] = float32(i) }
rb := cl.NewBufferSize(ctx, cl.ReadWrite, 4*16*8)
cl.EnqueueCopy(q, rb, img)
box := make([]float32, 4*3)
cl.EnqueueCopyRect(q, box, rb, cl.Rect{SrcOrigin: [3]int{4 * 5, 2, 0}, Region: [3]int{4 * 4, 3, 1}, SrcRowPitch: 4 * 16})
okRead := box[0] == 2*16+5 && box[4] == 3*16+5 && box[11] == 4*16+8
rb2 := cl.NewBufferSize(ctx, cl.ReadWrite, 4*4*3)
cl.EnqueueCopyRect(q, rb2, rb, cl.Rect{SrcOrigin: [3]int{4 * 5, 2, 0}, Region: [3]int{4 * 4, 3}, SrcRowPitch: 4 * 16}).Wait()
flat := make([]float32, 12)
cl.EnqueueCopy(q, flat, rb2)
okCopy := cl.EqualFloat32(flat, box)
hostImg := make([]float32, 16*8)
we := cl.EnqueueCopyRect(q, rb, box, cl.Rect{DstOrigin: [3]int{0, 5, 0}, Region: [3]int{16, 3}, DstRowPitch: 4 * 16}, cl.NonBlocking)
we.Wait()
cl.EnqueueCopy(q, hostImg, rb)
okWrite := hostImg[5*16] == box[0] && hostImg[7*16+3] == box[11]
tooBig := cl.Try(func() { cl.EnqueueCopyRect(q, box, rb, cl.Rect{Region: [3]int{4 * 17, 8}}) })
fmt.Println(okRead, okCopy, okWrite, we.Direction(), tooBig != nil)`,
			"true true true host→device true"},
		{"global offsets and vector arguments", `
prog := cl.BuildProgram(ctx, ` + "`" + `
__kernel void mark(__global int *out) { out[get_global_id(0)] = (int)get_global_id(0); }
__kernel void vec(__global float *out, float2 a, float4 b, int2 c, float2 z, double2 w, int3 t) {
	out[0] = a.x; out[1] = a.y; out[2] = b.w; out[3] = (float)c.y; out[4] = z.y; out[5] = (float)w.x; out[6] = (float)t.z;
}` + "`" + `, "")
mk := prog.Kernel("mark")
ob := cl.NewBuffer(ctx, cl.ReadWrite|cl.CopyHostPtr, make([]int32, 16))
mk.SetArgs(ob)
kev := cl.EnqueueKernel(q, mk, []int{8}, nil, cl.GlobalOffset(8))
kev.Wait()
marks := make([]int32, 16)
cl.EnqueueCopy(q, marks, ob)
vk := prog.Kernel("vec")
vb := cl.NewBufferSize(ctx, cl.ReadWrite, 4*8)
vk.SetArgs(vb, [2]float32{1.5, 2.5}, [4]float32{0, 0, 0, 4.5}, [2]int32{0, 7}, complex64(complex(0, 8.5)), complex(9.0, 0), [3]int32{0, 0, 11})
cl.EnqueueKernel(q, vk, []int{1}, nil).Wait()
vs := make([]float32, 8)
cl.EnqueueCopy(q, vs, vb)
wrongVec := cl.Try(func() { vk.SetArg(1, [4]float32{}) })
wg := mk.WorkGroupInfo(nil)
card := kev.String()
fmt.Println(marks[7], marks[8], marks[15], vs[:7], wrongVec != nil, wg.WorkGroupSize > 0, strings.Contains(card, "kernel mark"), strings.Contains(card, "global offset"), !strings.Contains(card, "0 B"))`,
			"0 8 15 [1.5 2.5 4.5 7 8.5 9 11] true true true true true"},
		{"get_info in full", `
dev := q.Device()
full := dev.Info()
pinfo := dev.Platform.Info()
cu := dev.GetInfo("MAX_COMPUTE_UNITS").(int64)
typ := dev.GetInfo("TYPE").(cl.Flags)
bad := cl.Try(func() { dev.GetInfo("NO_SUCH_THING") })
_, hasName := full.Get("NAME")
fmt.Println(cu == int64(dev.ComputeUnits), typ.String() == strings.ToUpper(dev.Type) || dev.Type == "accelerator", hasName, len(full.Rows) > 60, len(pinfo.Rows) >= 5, strings.Contains(full.HTML(), "<table"), bad != nil)`,
			"true true true true true true true"},
		{"maps in both directions", `
mb := cl.NewBuffer(ctx, cl.ReadWrite|cl.CopyHostPtr, cl.RandomSeed(1024, 4))
rd := cl.EnqueueMap(q, mb, cl.MapRead, cl.NonBlocking)
sum := cl.Sum(rd.Float64s())
rdDir := rd.Event().Direction()
rd.Unmap()
wr := cl.EnqueueMap(q, mb, cl.MapWriteInvalidate)
cl.Fill(wr.Float64s(), 2)
un := wr.Unmap()
got := make([]float64, 1024)
cl.EnqueueCopy(q, got, mb)
fmt.Println(sum > 0, rdDir, un.Direction(), cl.Sum(got) == 2048)`,
			"true device→host host→device true"},
		{"SVM where the device has it", `
var svmLine string
if q.Device().SVM.Value == 0 {
	err := cl.Try(func() { cl.NewSVM(ctx, cl.ReadWrite, 4096) })
	svmLine = fmt.Sprintf("no SVM, refused clearly: %v", err != nil && strings.Contains(err.Error(), "no shared virtual memory"))
} else {
	s := cl.NewSVM(ctx, cl.ReadWrite, 8*256)
	data := cl.RandomSeed(256, 5)
	ce := cl.EnqueueSVMMemcpy(q, s, data)
	sk := cl.BuildProgram(ctx, "__kernel void twice(__global double *x) { x[get_global_id(0)] *= 2; }", "").Kernel("twice")
	sk.SetArgs(s)
	cl.EnqueueKernel(q, sk, []int{256}, nil).Wait()
	cl.EnqueueSVMMap(q, s, cl.MapRead)
	doubled := s.Float64s()[10] == 2*data[10]
	cl.EnqueueSVMUnmap(q, s)
	out := make([]float64, 256)
	cl.EnqueueSVMMemcpy(q, out, s)
	s.Free()
	svmLine = fmt.Sprintf("SVM works: %v %s", doubled && out[255] == 2*data[255], ce.Direction())
}
fmt.Println(svmLine)`, "SVM works: true host→device"},
		{"a recording saved as a Chrome trace", `
rec := cl.Record()
tb := cl.NewBufferSize(ctx, cl.ReadWrite, 8*4096)
th := cl.RandomSeed(4096, 9)
w1 := cl.EnqueueCopy(q, tb, th, cl.NonBlocking)
mk.SetArgs(ob)
k1 := cl.EnqueueKernel(q, mk, []int{16}, nil, cl.WaitFor(w1))
r1 := cl.EnqueueCopy(q, th, tb, cl.NonBlocking, cl.WaitFor(k1))
r1.Wait()
rec.Stop()
after := cl.EnqueueCopy(q, th, tb)
path := rec.SaveTrace(` + "`" + `TRACEPATH` + "`" + `)
tlHTML := rec.HTML()
fmt.Println(len(rec.Events()), strings.Contains(tlHTML, "<svg"), after != nil, path != "")`, "3 true true true"},
	}
	for _, s := range steps {
		code := strings.ReplaceAll(s.code, "TRACEPATH", filepath.Join(dir, "trace.json"))
		if s.name == "SVM where the device has it" {
			// PoCL has SVM; a device without it must give the other line.
			_, out := run(t, e, code)
			last := lastLine(out)
			if last != s.want && !strings.HasPrefix(last, "no SVM, refused clearly: true") {
				t.Errorf("%s: cell printed %q", s.name, last)
			}
			continue
		}
		_, out := run(t, e, code)
		if got := lastLine(out); got != s.want {
			t.Errorf("%s: cell printed %q, want %q", s.name, got, s.want)
		}
	}
	raw, err := os.ReadFile(filepath.Join(dir, "trace.json"))
	if err != nil {
		t.Fatal(err)
	}
	var tr traceDoc
	if err := json.Unmarshal(raw, &tr); err != nil {
		t.Fatalf("trace is not JSON: %v", err)
	}
	validateTrace(t, tr)
	// The known cell: these host calls, in this order, on one host thread.
	checkHostCalls(t, tr, []string{"clCreateBuffer", "clEnqueueWriteBuffer", "clSetKernelArg", "clEnqueueNDRangeKernel( mark )", "clEnqueueReadBuffer", "clWaitForEvents"})
	// And its three commands on the queue, each in three stages, in order.
	checkCommands(t, tr, []string{"clEnqueueWriteBuffer", "mark", "clEnqueueReadBuffer"})
}

func lastLine(out string) string {
	lines := strings.Split(strings.TrimSpace(out), "\n")
	return lines[len(lines)-1]
}

// TestDumpPropertiesCell runs the port of PyOpenCL's dump-properties.py.
func TestDumpPropertiesCell(t *testing.T) {
	e := newEngine(t)
	src, err := os.ReadFile("testdata/dump-properties.cell")
	if err != nil {
		t.Fatal(err)
	}
	_, out := run(t, e, string(src))
	for _, w := range []string{strings.Repeat("=", 75), "\nNAME: ", "\nMAX_COMPUTE_UNITS: ", "\nHOST_TIMER_RESOLUTION: ", "IMAGE2D cl.ReadOnly FORMATS: ", "IMAGE3D cl.ReadOnly FORMATS: "} {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q", w)
		}
	}
	// Every device parameter gets a line, answered or "<error>".
	if n := strings.Count(out, "\nSVM_CAPABILITIES: "); n < 1 {
		t.Errorf("SVM_CAPABILITIES printed %d times", n)
	}
	if !strings.Contains(out, ": <error>") {
		t.Error("no parameter printed as <error>: the device cannot answer the NV/AMD/Intel ones")
	}
}

// TestDumpPropertiesInNotebook08 keeps notebook 08's appendix the same
// program as the tested cell above.
func TestDumpPropertiesInNotebook08(t *testing.T) {
	want, err := os.ReadFile("testdata/dump-properties.cell")
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile("../notebooks/08-transfer-matrix.ipynb")
	if err != nil {
		t.Fatal(err)
	}
	var nb struct {
		Cells []struct {
			CellType string   `json:"cell_type"`
			Source   []string `json:"source"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(raw, &nb); err != nil {
		t.Fatal(err)
	}
	for _, c := range nb.Cells {
		if c.CellType == "code" && strings.Join(c.Source, "") == strings.TrimRight(string(want), "\n") {
			return
		}
	}
	t.Error("notebook 08 has no cell equal to testdata/dump-properties.cell: copy it over")
}

// TestTimelineTraceJSON saves a plain Timeline (no recording) as a trace:
// its enqueue calls on the one host row, its commands in stages.
func TestTimelineTraceJSON(t *testing.T) {
	if len(clapi.Platforms()) == 0 {
		t.Skip("no OpenCL platform")
	}
	ctx := clapi.CreateSomeContext()
	q := clapi.NewQueue(ctx, clapi.Profiling)
	a := clapi.RandomSeed(1<<12, 3)
	b := clapi.NewBufferSize(ctx, clapi.ReadWrite, 8<<12)
	w := clapi.EnqueueCopy(q, b, a, clapi.NonBlocking)
	r := clapi.EnqueueCopy(q, a, b, clapi.NonBlocking, clapi.WaitFor(w))
	var tr traceDoc
	if err := json.Unmarshal([]byte(clapi.Timeline(w, r).TraceJSON()), &tr); err != nil {
		t.Fatal(err)
	}
	validateTrace(t, tr)
	checkHostCalls(t, tr, []string{"clEnqueueWriteBuffer", "clEnqueueReadBuffer"})
	checkCommands(t, tr, []string{"clEnqueueWriteBuffer", "clEnqueueReadBuffer"})
}
