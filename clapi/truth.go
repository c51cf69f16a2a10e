package clapi

import (
	"sync"
	"time"

	"github.com/seed43a1e1ab/gocl/clapi/truth"
	"github.com/seed43a1e1ab/gocl/clapi/viz"
	"github.com/seed43a1e1ab/gocl/kernel/cellio"
)

// Finding is one conclusion a notebook prints: the sentence and the numbers
// it rests on (clapi/truth). Notebooks show them in a [Findings], which the
// project's truth check reads back from the saved notebook.
type Finding = truth.Finding

// Findings is a notebook's conclusions about one device: shown as a cell's
// value (or with display.Show), it renders the sentences as Markdown and
// carries the findings as JSON (application/vnd.gocl.findings+json).
type Findings = truth.Report

// Transfer is one measured transfer, for [JudgeTransfer].
type Transfer = truth.Transfer

// Link is the fastest a transfer between host and device can go, and where
// the figure comes from ([Device.Link]).
type Link = truth.Link

// JudgeTransfer returns the verdicts on one transfer from its numbers alone:
// whether the device's profiling can time it (else the host's time from the
// call to completion is used, and a finding says so), whether anything was
// copied, its rate (never one above the link) and whether the call held the
// host for the copy.
func JudgeTransfer(t Transfer, link Link) []Finding { return truth.JudgeTransfer(t, link) }

// JudgeWrapped says what wrapping a host slice in a UseHostPtr buffer did
// to it, from plain copies of the slice while the buffer lived and after its
// release, against pinned memory's rate in the same run.
func JudgeWrapped(create time.Duration, wrapped, unwrapped Transfer, pinnedGBs float64, link Link) Finding {
	return truth.JudgeWrapped(create, wrapped, unwrapped, pinnedGBs, link)
}

// JudgeCapability states a device capability as dev.Info() reports it
// (value "" or "none" when the device has none).
func JudgeCapability(param, value, meaning string) Finding {
	return truth.JudgeCapability(param, value, meaning)
}

// CopyTime is the time a transfer's findings rest on: the device's time
// when it can be the command's, else the host's from the call to completion.
func CopyTime(t Transfer, link Link) time.Duration { return truth.CopyTime(t, link) }

var links sync.Map // *Device → Link

// Link is the fastest a transfer between this device and the host can go:
// for a CPU device or one with unified memory a stated bound (it uses host
// memory); else the PCIe link that Linux reports in sysfs for the device's
// PCI address (cl_khr_pci_bus_info); else the stated bound of PCIe Gen5 x16.
// Its Source says which.
func (d *Device) Link() Link {
	if l, ok := links.Load(d); ok {
		return l.(Link)
	}
	var pci []uint64
	var info any
	if Try(func() { info = d.GetInfo("PCI_BUS_INFO_KHR") }) == nil {
		if v, ok := info.([]int64); ok && len(v) == 4 {
			pci = []uint64{uint64(v[0]), uint64(v[1]), uint64(v[2]), uint64(v[3])}
		}
	}
	l := truth.DeviceLink(d.Type, d.UnifiedMemory, pci)
	links.Store(d, l)
	return l
}

// Findings is the event card's verdict as findings: what the verdict
// claims, with the bytes and times it rests on, and the rate the card
// prints. A kernel or marker has none.
func (e *Event) Findings() *Findings {
	c := e.Card()
	r := &Findings{Device: c.Device}
	if e.queue != nil {
		r.Link = e.queue.dev.Link()
	}
	claim := viz.Claim(c)
	if claim == "" {
		return r
	}
	dev := viz.UsableDeviceTime(c)
	f := Finding{Claim: truth.Claim(claim), Subject: c.Command + " " + c.Direction, Sentence: viz.Verdict(c),
		Bytes: c.Bytes, HostNs: int64(c.HostBlocked), DeviceNs: int64(dev),
		Other: map[string]float64{"queued_ns": float64(c.QueuedWait), "submitted_ns": float64(c.SubmitWait), "profiled_ns": float64(c.DeviceTime),
			"waited_ns": float64(c.QueuedWait + c.SubmitWait), "link_gbs": c.LinkGBs}}
	if dev > 0 {
		f.Other["rate_gbs"] = truth.GBs(c.Bytes, dev)
	}
	if claim == "device-untimed" {
		f.Claim = truth.Untimed
	}
	r.Add(f)
	if dev > 0 && c.Direction != DeviceToDevice {
		rate := truth.GBs(c.Bytes, dev)
		r.Add(Finding{Claim: truth.Rate, Subject: f.Subject, Sentence: "device time " + viz.FormatDuration(dev) + " · " + viz.FormatRate(c.Bytes, dev),
			Bytes: c.Bytes, HostNs: f.HostNs, DeviceNs: int64(dev), GBs: rate, Over: "device"})
	}
	return r
}

// MIMEBundle shows the event as its card (HTML and text) with the card's
// findings as JSON, for the truth check.
func (e *Event) MIMEBundle() cellio.Bundle {
	b := cellio.Bundle{"text/html": e.HTML(), "text/plain": e.String()}
	b[truth.MIME] = e.Findings().MIMEBundle()[truth.MIME]
	return b
}
