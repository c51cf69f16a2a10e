package clapi

import (
	"github.com/seed43a1e1ab/gocl/clapi/viz"
)

// Card describes the command for an event card. It waits for the command
// first (unless the cell is interrupted) so that the device time is known.
func (e *Event) Card() viz.CopyCard {
	e.wait()
	c := viz.CopyCard{
		Command:     e.info.command,
		Direction:   e.info.direction,
		HostMemory:  e.info.hostMemory,
		Bytes:       e.info.bytes,
		NonBlocking: e.info.nonBlocking,
		HostBlocked: e.HostBlocked(),
		Status:      e.Status(),
	}
	if e.queue != nil {
		c.Device = e.queue.dev.Name
		c.DeviceType = e.queue.dev.Type
		c.LinkGBs = e.queue.dev.Link().GBs
	}
	if p, ok := e.tryProfile(); ok {
		c.DeviceTime = timeDiff(p[2], p[3])
		if p[0] > 0 && p[1] >= p[0] && p[2] >= p[1] {
			c.Stages, c.QueuedWait, c.SubmitWait = true, timeDiff(p[0], p[1]), timeDiff(p[1], p[2])
		}
	}
	if k := e.info.kernel; k != nil {
		c.Kernel, c.Global, c.Local, c.Offset = k.name, k.global, k.local, k.offset
	}
	return c
}

// HTML renders the event as a card: bytes, direction, device time, rate,
// how long the call held the host, and a verdict in plain words.
func (e *Event) HTML() string { return viz.EventCardHTML(e.Card()) }

// String is the card as text.
func (e *Event) String() string { return viz.EventCardText(e.Card()) }
