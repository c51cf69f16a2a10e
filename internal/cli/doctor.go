package cli

import (
	"flag"
	"fmt"
	"io"

	"github.com/seed43a1e1ab/gocl/clapi"
	"github.com/seed43a1e1ab/gocl/clapi/doctor"
	"github.com/seed43a1e1ab/gocl/kernel/supervisor"
)

func doctorCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("gocl doctor", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fix := fs.Bool("fix", false, "register NVIDIA's OpenCL library when it is installed but no ICD file names it (needs root)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *fix {
		wrote, err := doctor.RegisterNVIDIA("")
		switch {
		case err != nil:
			fmt.Fprintf(stderr, "gocl doctor --fix: %v\n", err)
		case wrote:
			fmt.Fprintln(stdout, "Registered NVIDIA's OpenCL library (libnvidia-opencl.so.1) with an ICD file.")
		}
	}
	report := doctor.Diagnose(doctor.Options{ListDevices: listDevices})
	fmt.Fprint(stdout, report.String())
	fmt.Fprintln(stdout, memoryLimitLine())
	if !report.OK() {
		return 1
	}
	return 0
}

// memoryLimitLine says what memory limit the engine process runs under.
func memoryLimitLine() string {
	limit, source, err := supervisor.MemoryLimit()
	switch {
	case err != nil:
		return fmt.Sprintf("Engine memory limit: %s (%s)\nproblem: %v", supervisor.FormatBytes(limit), source, err)
	case limit == 0:
		return "Engine memory limit: " + source
	}
	return fmt.Sprintf("Engine memory limit: %s (%s): an allocation beyond it fails in the cell's engine, which the kernel "+
		"reports and replaces; set GOCL_MEMORY_LIMIT (e.g. 8GB, 50%%, off) to change it", supervisor.FormatBytes(limit), source)
}

// listDevices reads every platform's devices through the binding, turning
// its panics into an error for the report.
func listDevices() (devs []doctor.DeviceInfo, err error) {
	err = clapi.Try(func() {
		for _, p := range clapi.Platforms() {
			for _, d := range p.Devices() {
				devs = append(devs, doctor.DeviceInfo{
					Platform: p.Name, PlatformVendor: p.Vendor, PlatformVersion: p.Version,
					Name: d.Name, Type: d.Type, Version: d.Version, DriverVersion: d.DriverVersion,
					ComputeUnits: d.ComputeUnits, GlobalMemBytes: d.GlobalMemBytes, MaxAllocBytes: d.MaxAllocBytes,
				})
			}
		}
	})
	return devs, err
}
