// Command uhpprobe measures what a driver does with a UseHostPtr buffer's
// migration and with coarse-grained SVM (issue 21), printing one line per
// measurement: what the call held the host, what the device's profiling says,
// and the time from the call to the command's completion as the host sees
// it (what can be timed when profiling cannot).
//
// The UseHostPtr question is whether the driver pins (page-locks) the host
// slice, and when: at clCreateBuffer or in the migration. The test is
// indirect but decisive: a plain EnqueueCopy from pageable memory is staged
// by NVIDIA (about 8 GB/s, the call blocks); from page-locked memory it is a
// DMA at the link's rate and a non-blocking call returns at once. So the
// same slice is copied before it is wrapped, while it is wrapped, and after
// the buffer is released. /proc/self/status's VmLck and VmPin are printed at
// each step too.
//
//	go build -ldflags='-s -w' -o .gpu/lab/uhpprobe ./bench/uhpprobe
//	GOCL_CTX=nvidia OCL_ICD_FILENAMES=libnvidia-opencl.so.1 uhpprobe -bytes 4e9
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	cl "github.com/seed43a1e1ab/gocl/clapi"
)

var (
	q      *cl.Queue
	ctx    *cl.Context
	nbytes int
)

func main() {
	size := flag.Float64("bytes", 4e8, "bytes per transfer")
	flag.Parse()
	nbytes = int(*size) &^ 4095
	ctx = cl.CreateSomeContext()
	q = cl.NewQueue(ctx, cl.Profiling)
	dev := ctx.Device()
	fmt.Printf("Device: %s · %s · driver %s · SVM %s · unified %v\n", dev.Name, dev.Platform.Name, dev.DriverVersion, dev.SVMSupport(), dev.UnifiedMemory)
	link(dev)
	fmt.Printf("bytes %d\n\n", nbytes)
	useHostPtr()
	if dev.SVM.Value != 0 {
		svm()
	}
}

// link prints the PCIe link as sysfs reports it for the device's PCI address.
func link(dev *cl.Device) {
	var info any
	if err := cl.Try(func() { info = dev.GetInfo("PCI_BUS_INFO_KHR") }); err != nil {
		fmt.Println("PCI_BUS_INFO_KHR:", err)
		return
	}
	fmt.Printf("PCI_BUS_INFO_KHR: %v\n", info)
	var d [4]uint64
	fmt.Sscan(strings.Trim(fmt.Sprint(info), "[]"), &d[0], &d[1], &d[2], &d[3])
	addr := fmt.Sprintf("%04x:%02x:%02x.%x", d[0], d[1], d[2], d[3])
	for _, f := range []string{"current_link_speed", "current_link_width", "max_link_speed", "max_link_width"} {
		b, err := os.ReadFile("/sys/bus/pci/devices/" + addr + "/" + f)
		fmt.Printf("  %s %s: %q %v\n", addr, f, strings.TrimSpace(string(b)), err)
	}
}

// vm returns VmLck and VmPin from /proc/self/status.
func vm() string {
	b, _ := os.ReadFile("/proc/self/status")
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "VmLck") || strings.HasPrefix(l, "VmPin") || strings.HasPrefix(l, "VmRSS") {
			out = append(out, strings.Join(strings.Fields(l), " "))
		}
	}
	return strings.Join(out, ", ")
}

// report prints one event: host-blocked, device time, wall to completion.
func report(what string, start time.Time, ev *cl.Event) {
	ev.Wait()
	wall := time.Since(start)
	var dt time.Duration
	if err := cl.Try(func() { dt = ev.DeviceTime() }); err != nil {
		dt = -1
	}
	b := ev.Bytes()
	rate := func(d time.Duration) float64 {
		if d <= 0 {
			return 0
		}
		return float64(b) / d.Seconds() / 1e9
	}
	fmt.Printf("%-58s call %10.3f ms  device %10.3f ms (%8.2f GB/s)  to completion %10.3f ms (%6.2f GB/s)  [%s]\n",
		what, ms(ev.HostBlocked()), ms(dt), rate(dt), ms(wall), rate(wall), vm())
}

func ms(d time.Duration) float64 { return d.Seconds() * 1e3 }

func timed(what string, f func() *cl.Event) {
	start := time.Now()
	report(what, start, f())
}

func touch(s []float64, v float64) {
	for i := range s {
		s[i] = v + float64(i%1000)
	}
}

// check reads the device buffer back through a fresh device buffer and
// compares samples with want.
func check(what string, b *cl.Buffer, want []float64) {
	dst := cl.NewBufferSize(ctx, cl.ReadWrite, b.Size())
	cl.EnqueueCopy(q, dst, b).Wait()
	got := make([]float64, len(want))
	cl.EnqueueCopy(q, got, dst).Wait()
	dst.Release()
	bad := 0
	for i := 0; i < len(want); i += 4096 {
		if got[i] != want[i] {
			bad++
		}
	}
	fmt.Printf("%-58s data on the device: %s\n", what, map[bool]string{true: "matches the host slice", false: fmt.Sprintf("%d samples differ", bad)}[bad == 0])
}

func useHostPtr() {
	n := nbytes / 8
	dev := cl.NewBufferSize(ctx, cl.ReadWrite, nbytes)
	cl.EnqueueMigrate(q, []*cl.Buffer{dev}, cl.ContentUndefined).Wait()
	host := make([]float64, n)
	touch(host, 1)
	other := make([]float64, n)
	touch(other, 2)
	fmt.Println("== UseHostPtr:", vm())
	for i := 0; i < 2; i++ {
		timed("pageable copy from the slice, non-blocking", func() *cl.Event { return cl.EnqueueCopy(q, dev, host, cl.NonBlocking) })
	}
	for _, frac := range []int{1000, 10, 1} {
		m := n / frac
		start := time.Now()
		b := cl.NewBuffer(ctx, cl.ReadWrite|cl.UseHostPtr, host[:m])
		fmt.Printf("%-58s %10.3f ms [%s]\n", fmt.Sprintf("NewBuffer(UseHostPtr) over %d bytes", 8*m), ms(time.Since(start)), vm())
		b.Release()
	}
	start := time.Now()
	uhp := cl.NewBuffer(ctx, cl.ReadWrite|cl.UseHostPtr, host)
	fmt.Printf("%-58s %10.3f ms [%s]\n", "NewBuffer(UseHostPtr) over the whole slice", ms(time.Since(start)), vm())
	timed("pageable copy from the wrapped slice, non-blocking", func() *cl.Event { return cl.EnqueueCopy(q, dev, host, cl.NonBlocking) })
	timed("pageable copy from another slice, non-blocking", func() *cl.Event { return cl.EnqueueCopy(q, dev, other, cl.NonBlocking) })
	for i := 1; i <= 3; i++ {
		timed(fmt.Sprintf("migrate to device, blocking (%d)", i), func() *cl.Event { return cl.EnqueueMigrate(q, []*cl.Buffer{uhp}) })
		timed(fmt.Sprintf("migrate to host, blocking (%d)", i), func() *cl.Event { return cl.EnqueueMigrate(q, []*cl.Buffer{uhp}, cl.ToHost) })
	}
	for i := 1; i <= 2; i++ {
		timed(fmt.Sprintf("migrate to device, non-blocking (%d)", i), func() *cl.Event { return cl.EnqueueMigrate(q, []*cl.Buffer{uhp}, cl.NonBlocking) })
		timed(fmt.Sprintf("migrate to host, non-blocking (%d)", i), func() *cl.Event {
			return cl.EnqueueMigrate(q, []*cl.Buffer{uhp}, cl.ToHost, cl.NonBlocking)
		})
	}
	// Does the migration move the data? Change the slice on the host side,
	// migrate, and read the device's copy through a device-to-device copy.
	touch(host, 7)
	timed("migrate to device after the host changed the slice", func() *cl.Event { return cl.EnqueueMigrate(q, []*cl.Buffer{uhp}) })
	check("  after it:", uhp, host)
	timed("migrate to host", func() *cl.Event { return cl.EnqueueMigrate(q, []*cl.Buffer{uhp}, cl.ToHost) })
	// A migration right after creation, in a fresh buffer per call, as
	// notebook 08 makes it.
	uhp.Release()
	fmt.Printf("%-58s [%s]\n", "released the whole-slice buffer", vm())
	timed("pageable copy from the slice after release, non-blocking", func() *cl.Event { return cl.EnqueueCopy(q, dev, host, cl.NonBlocking) })
	for i := 1; i <= 2; i++ {
		start := time.Now()
		b := cl.NewBuffer(ctx, cl.ReadWrite|cl.UseHostPtr, host)
		created := time.Since(start)
		to := cl.EnqueueMigrate(q, []*cl.Buffer{b}, cl.ToHost)
		fmt.Printf("%-58s create %.3f ms, migrate ToHost first %.3f ms (device %.3f ms)\n", fmt.Sprintf("fresh buffer (%d)", i), ms(created), ms(to.HostBlocked()), ms(to.DeviceTime()))
		timed("  its migrate to device, non-blocking", func() *cl.Event { return cl.EnqueueMigrate(q, []*cl.Buffer{b}, cl.NonBlocking) })
		timed("  pageable copy from its slice while it lives", func() *cl.Event { return cl.EnqueueCopy(q, dev, host, cl.NonBlocking) })
		b.Release()
	}
	dev.Release()
}

func svm() {
	n := nbytes / 8
	s := cl.NewSVM(ctx, cl.ReadWrite, nbytes)
	fmt.Println("\n== SVM (coarse grain):", s, vm())
	pageable := make([]float64, n)
	touch(pageable, 3)
	pinned := cl.NewPinnedHost(q, nbytes)
	touch(pinned.Float64s(), 4)
	for i := 1; i <= 2; i++ {
		timed(fmt.Sprintf("SVMMap write-invalidate, blocking (%d)", i), func() *cl.Event { return cl.EnqueueSVMMap(q, s, cl.MapWriteInvalidate) })
		start := time.Now()
		touch(s.Float64s(), 5)
		fmt.Printf("%-58s %10.3f ms\n", "  host writes the mapped SVM", ms(time.Since(start)))
		timed("SVMUnmap, blocking", func() *cl.Event { return cl.EnqueueSVMUnmap(q, s) })
		timed("SVMMap read, blocking", func() *cl.Event { return cl.EnqueueSVMMap(q, s, cl.MapRead) })
		start = time.Now()
		sum := 0.0
		for _, v := range s.Float64s() {
			sum += v
		}
		fmt.Printf("%-58s %10.3f ms (sum %g)\n", "  host reads the mapped SVM", ms(time.Since(start)), sum)
		timed("SVMUnmap, blocking", func() *cl.Event { return cl.EnqueueSVMUnmap(q, s) })
		timed("SVMMap read, non-blocking", func() *cl.Event { return cl.EnqueueSVMMap(q, s, cl.MapRead, cl.NonBlocking) })
		timed("SVMUnmap, non-blocking", func() *cl.Event { return cl.EnqueueSVMUnmap(q, s, cl.NonBlocking) })
	}
	for _, nb := range []bool{false, true} {
		var opts []cl.Option
		mode := "blocking"
		if nb {
			opts, mode = []cl.Option{cl.NonBlocking}, "non-blocking"
		}
		for i := 1; i <= 2; i++ {
			timed(fmt.Sprintf("SVMMemcpy to SVM from pageable, %s (%d)", mode, i), func() *cl.Event { return cl.EnqueueSVMMemcpy(q, s, pageable, opts...) })
			timed(fmt.Sprintf("SVMMemcpy to SVM from pinned, %s (%d)", mode, i), func() *cl.Event { return cl.EnqueueSVMMemcpy(q, s, pinned, opts...) })
			timed(fmt.Sprintf("SVMMemcpy from SVM to pageable, %s (%d)", mode, i), func() *cl.Event { return cl.EnqueueSVMMemcpy(q, pageable, s, opts...) })
			timed(fmt.Sprintf("SVMMemcpy from SVM to pinned, %s (%d)", mode, i), func() *cl.Event { return cl.EnqueueSVMMemcpy(q, pinned, s, opts...) })
		}
	}
	touch(pinned.Float64s(), 9)
	cl.EnqueueSVMMemcpy(q, s, pinned).Wait()
	cl.EnqueueSVMMemcpy(q, pageable, s).Wait()
	bad := 0
	for i, v := range pinned.Float64s() {
		if pageable[i] != v {
			bad++
		}
	}
	fmt.Printf("%-58s %d values differ\n", "pinned → SVM → pageable round trip:", bad)
	pinned.Close()
	s.Free()
}
