package doctor

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/seed43a1e1ab/gocl/clapi/viz"
)

// String renders the report as plain text: one section per thing examined,
// then every problem with its fix.
func (r *Report) String() string {
	var b strings.Builder
	b.WriteString("gocl doctor: OpenCL set-up\n")
	section := func(title string, lines []string) {
		if len(lines) == 0 {
			return
		}
		fmt.Fprintf(&b, "\n%-12s %s\n", title, lines[0])
		for _, l := range lines[1:] {
			fmt.Fprintf(&b, "%-12s %s\n", "", l)
		}
	}

	var loader []string
	if l := r.Loader; l.Path == "" {
		loader = append(loader, "libOpenCL.so.1 not found")
	} else {
		s := l.Path
		if l.RealPath != "" && l.RealPath != l.Path {
			s += " → " + l.RealPath
		}
		s += " (" + l.Flavor
		if l.Version != "" {
			s += " " + l.Version
		}
		if l.ReadsFilenames {
			s += "; reads OCL_ICD_FILENAMES)"
		} else {
			s += "; ignores OCL_ICD_FILENAMES)"
		}
		if l.LoadErr != "" {
			s += " cannot be loaded: " + l.LoadErr
		}
		loader = append(loader, s)
		for _, o := range l.Others {
			loader = append(loader, "also present, not picked: "+o)
		}
	}
	section("loader", loader)

	var env []string
	for _, e := range r.Env {
		env = append(env, e.Name+"="+e.Value)
	}
	if len(env) == 0 {
		env = []string{"none of " + strings.Join(envNames, ", ") + " is set"}
	}
	section("environment", env)

	icds := []string{r.VendorsDir}
	if len(r.ICDs) == 0 {
		icds[0] += ": no .icd files"
	}
	for _, i := range r.ICDs {
		icds = append(icds, "  "+filepath.Base(i.File)+" → "+describeICD(i))
	}
	for _, i := range r.Filenames {
		icds = append(icds, "  OCL_ICD_FILENAMES → "+describeICD(i))
	}
	section("ICD files", icds)

	var vendors []string
	for _, v := range r.Vendors {
		s := fmt.Sprintf("%s: %s", v.Vendor, v.Path)
		if v.Registered {
			s += " (registered by " + v.Via + ")"
		} else {
			s += " (NOT registered)"
		}
		vendors = append(vendors, s)
	}
	if len(vendors) == 0 {
		vendors = []string{"none of the known vendor libraries found"}
	}
	section("vendor libs", vendors)

	var devs []string
	switch {
	case !r.DevicesListed:
		devs = []string{"not listed (this build has no OpenCL binding wired in)"}
	case r.DevicesErr != "":
		devs = []string{"listing failed: " + r.DevicesErr}
	case len(r.Devices) == 0:
		devs = []string{"no platforms"}
	}
	platform := "\x00"
	for _, d := range r.Devices {
		if d.Platform != platform {
			platform = d.Platform
			s := d.Platform
			if d.PlatformVersion != "" {
				s += " (" + d.PlatformVersion + ")"
			}
			devs = append(devs, s)
		}
		if d.Name != "" {
			devs = append(devs, "  "+describeDevice(d))
		}
	}
	section("devices", devs)
	section("notes", r.Notes)

	b.WriteString("\n")
	if r.OK() {
		b.WriteString("no problems found\n")
	}
	for _, f := range r.Findings {
		fmt.Fprintf(&b, "problem: %s\nfix:     %s\n", f.Problem, f.Fix)
	}
	return b.String()
}

func describeICD(i ICD) string {
	switch {
	case i.Library == "":
		return "(empty)"
	case i.Path == "":
		return i.Library + " (not found)"
	case i.LoadErr != "":
		return i.Library + " (" + i.Path + ", does not load: " + i.LoadErr + ")"
	}
	return i.Library + " (" + i.Path + ", loads)"
}

func describeDevice(d DeviceInfo) string {
	parts := []string{d.Name}
	if d.Type != "" {
		parts = append(parts, d.Type)
	}
	if d.ComputeUnits > 0 {
		parts = append(parts, fmt.Sprintf("%d compute units", d.ComputeUnits))
	}
	if d.ClockMHz > 0 {
		parts = append(parts, fmt.Sprintf("%d MHz", d.ClockMHz))
	}
	if d.GlobalMemBytes > 0 {
		parts = append(parts, viz.FormatBytes(d.GlobalMemBytes)+" memory")
	}
	if d.MaxAllocBytes > 0 {
		parts = append(parts, "max alloc "+viz.FormatBytes(d.MaxAllocBytes))
	}
	if d.Version != "" {
		parts = append(parts, d.Version)
	}
	if d.DriverVersion != "" {
		parts = append(parts, "driver "+d.DriverVersion)
	}
	return strings.Join(parts, ", ")
}
