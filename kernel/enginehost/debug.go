package enginehost

import (
	"context"
	"encoding/json"

	"github.com/seed43a1e1ab/gocl/kernel/enginewire"
)

// Debugger is the optional part of an Engine that answers JupyterLab's
// debugger (*engine.Engine provides it): DAP requests in, DAP responses
// out, and DAP events (a cell stopped at a breakpoint) whenever they
// happen.
type Debugger interface {
	Debug(ctx context.Context, request json.RawMessage) (json.RawMessage, error)
	SetDebugEvents(func(event json.RawMessage))
	DebugCellSource(code string)
}

// addDebugger serves OpDebug and sends the debugger's events as EvDebug
// with ID 0: they belong to no request. A debug request is answered on its
// own goroutine, as every request is, so it is answered while a cell is
// stopped at a breakpoint.
func (h *Host) addDebugger() {
	d, ok := h.eng.(Debugger)
	if !ok {
		return
	}
	d.SetDebugEvents(func(ev json.RawMessage) {
		_ = h.conn.Send(enginewire.Event{Kind: enginewire.EvDebug, Body: ev})
	})
	h.handlers[enginewire.OpDebug] = func(ctx context.Context, c *Call) (any, error) {
		return d.Debug(ctx, c.Body)
	}
}
