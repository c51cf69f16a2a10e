package clapi

/*
#include "gocl_cl.h"
*/
import "C"

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Context is an OpenCL context over one or more devices of one platform.
type Context struct {
	mu      sync.Mutex
	id      C.cl_context
	devices []*Device
}

// NewContext creates a context over the given devices, which must share a
// platform.
func NewContext(devices ...*Device) *Context {
	const call = "clCreateContext"
	if len(devices) == 0 {
		refuse(call, "CL_INVALID_VALUE", "no device given", "pass devices from cl.Platforms()[i].Devices(), or use cl.CreateSomeContext()")
	}
	ids := make([]C.cl_device_id, len(devices))
	for i, d := range devices {
		if d == nil {
			refuse(call, "CL_INVALID_DEVICE", fmt.Sprintf("device %d is nil", i), "")
		}
		if d.Platform.id != devices[0].Platform.id {
			refuse(call, "CL_INVALID_DEVICE", "the devices belong to different platforms",
				"a context spans one platform; make one context per platform")
		}
		ids[i] = d.id
	}
	var rc C.cl_int
	defer traceCall(call, time.Now())
	id := C.clCreateContext(nil, C.cl_uint(len(ids)), &ids[0], nil, nil, &rc)
	if rc != C.CL_SUCCESS {
		fail(call, int(rc), "creating a context on "+devices[0].Name)
	}
	c := &Context{id: id, devices: append([]*Device(nil), devices...)}
	runtime.SetFinalizer(c, func(c *Context) { releaseLater(c.Release) })
	return c
}

// CreateSomeContext creates a context without asking anything. The GOCL_CTX
// environment variable (or else PYOPENCL_CTX) chooses the device:
//
//	"0:1"        platform 0, device 1
//	"0"          platform 0, its first device
//	"nvidia"     the first platform whose name or vendor contains "nvidia"
//	             (any case), else the first device whose name contains it
//	"nvidia:h200" platform and device by name substring
//
// With neither variable set it takes the first GPU of any platform, else the
// first device of the first platform.
func CreateSomeContext() *Context {
	return NewContext(chooseDevice())
}

func chooseDevice() *Device {
	const call = "CreateSomeContext"
	plats := Platforms()
	if len(plats) == 0 {
		panic(newError(call, -1001, "the OpenCL loader lists no platform"))
	}
	sel, from := os.Getenv("GOCL_CTX"), "GOCL_CTX"
	if sel == "" {
		sel, from = os.Getenv("PYOPENCL_CTX"), "PYOPENCL_CTX"
	}
	if strings.TrimSpace(sel) == "" {
		var first *Device
		for _, p := range plats {
			for _, d := range p.Devices() {
				if d.Type == "GPU" {
					return d
				}
				if first == nil {
					first = d
				}
			}
		}
		if first == nil {
			refuse(call, "CL_DEVICE_NOT_FOUND", "the platforms have no device", "run `gocl doctor`")
		}
		return first
	}
	d, err := selectDevice(plats, sel)
	if err != "" {
		refuse(call, "CL_DEVICE_NOT_FOUND", fmt.Sprintf("%s=%q: %s", from, sel, err),
			"cl.Platforms() lists what exists; use \"platform:device\" indexes or a name substring")
	}
	return d
}

// selectDevice applies a GOCL_CTX selector; it returns a reason when
// nothing matches.
func selectDevice(plats PlatformList, sel string) (*Device, string) {
	pPart, dPart, hasDev := strings.Cut(strings.TrimSpace(sel), ":")
	pPart, dPart = strings.TrimSpace(pPart), strings.TrimSpace(dPart)
	var cands []*Platform
	if i, err := strconv.Atoi(pPart); err == nil {
		if i < 0 || i >= len(plats) {
			return nil, fmt.Sprintf("there is no platform %d (%d platforms)", i, len(plats))
		}
		cands = []*Platform{plats[i]}
	} else {
		for _, p := range plats {
			if containsFold(p.Name, pPart) || containsFold(p.Vendor, pPart) {
				cands = append(cands, p)
			}
		}
		if len(cands) == 0 && !hasDev {
			// A lone name may name a device instead.
			for _, p := range plats {
				for _, d := range p.Devices() {
					if containsFold(d.Name, pPart) {
						return d, ""
					}
				}
			}
			return nil, fmt.Sprintf("no platform or device name contains %q", pPart)
		}
		if len(cands) == 0 {
			return nil, fmt.Sprintf("no platform name contains %q", pPart)
		}
	}
	for _, p := range cands {
		devs := p.Devices()
		if !hasDev || dPart == "" {
			if len(devs) > 0 {
				return devs[0], ""
			}
			continue
		}
		if i, err := strconv.Atoi(dPart); err == nil {
			if i >= 0 && i < len(devs) {
				return devs[i], ""
			}
			continue
		}
		for _, d := range devs {
			if containsFold(d.Name, dPart) {
				return d, ""
			}
		}
	}
	if hasDev && dPart != "" {
		return nil, fmt.Sprintf("no device %q on the chosen platform", dPart)
	}
	return nil, "the chosen platform has no device"
}

func containsFold(s, sub string) bool {
	return strings.Contains(strings.ToLower(s), strings.ToLower(sub))
}

// Devices returns the context's devices.
func (c *Context) Devices() []*Device { return append([]*Device(nil), c.devices...) }

// Device returns the context's first device.
func (c *Context) Device() *Device { return c.devices[0] }

// String names the context's devices.
func (c *Context) String() string {
	names := make([]string, len(c.devices))
	for i, d := range c.devices {
		names[i] = d.Name
	}
	state := ""
	if c.released() {
		state = " (released)"
	}
	return fmt.Sprintf("cl.Context on %s [%s]%s", c.devices[0].Platform.Name, strings.Join(names, ", "), state)
}

// Release releases the context. Objects created from it keep the OpenCL
// context alive until they are released too. Release is idempotent.
func (c *Context) Release() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.id != nil {
		C.clReleaseContext(c.id)
		c.id = nil
	}
}

func (c *Context) released() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.id == nil
}

// handle returns the live context or panics with a clear error.
func (c *Context) handle(call string) C.cl_context {
	if c == nil {
		refuse(call, "CL_INVALID_CONTEXT", "the context is nil", "create one with cl.CreateSomeContext()")
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.id == nil {
		refuse(call, "CL_INVALID_CONTEXT", "the context was released", "create a new one with cl.CreateSomeContext()")
	}
	return c.id
}

// hasDevice reports whether d is one of the context's devices.
func (c *Context) hasDevice(d *Device) bool {
	for _, x := range c.devices {
		if x.id == d.id {
			return true
		}
	}
	return false
}
