package dispatch

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/seed43a1e1ab/gocl/kernel/transport"
	"github.com/seed43a1e1ab/gocl/kernel/wire"
)

// Debugger is the optional part of an Engine that serves JupyterLab's
// debugger (*supervisor.Supervisor provides it, in the engine process):
// Debug answers a debug_request's content (a DAP request) with the
// debug_reply's content, and never waits for a running cell, so that a
// cell stopped at a breakpoint can be inspected; events are the DAP events
// (stopped, continued...) the kernel publishes as debug_event.
type Debugger interface {
	Debug(ctx context.Context, request json.RawMessage) (json.RawMessage, error)
	SetDebugEvents(func(event json.RawMessage))
}

// canDebug says whether kernel_info_reply offers the debugger.
func (k *Kernel) canDebug() bool {
	_, ok := k.engine().(Debugger)
	return ok
}

func (k *Kernel) supportedFeatures() []string {
	if k.canDebug() {
		return []string{"debugger"}
	}
	return []string{}
}

// wireDebugEvents publishes eng's debugger events on IOPub.
func (k *Kernel) wireDebugEvents(eng Engine) {
	d, ok := eng.(Debugger)
	if !ok {
		return
	}
	d.SetDebugEvents(func(ev json.RawMessage) {
		k.t.Publish(nil, "debug_event", ev)
	})
}

// debug answers debug_request. It runs on the control channel, which is
// served while a cell runs: a cell stopped at a breakpoint is inspected
// and resumed from here. A request the engine cannot answer gets a DAP
// error response, never no reply.
func (k *Kernel) debug(ctx context.Context, ch transport.Channel, m *wire.Message) {
	var req struct {
		Seq     int    `json:"seq"`
		Command string `json:"command"`
	}
	_ = json.Unmarshal(m.Content, &req)
	d, ok := k.engine().(Debugger)
	var err error
	if !ok {
		err = errors.New("this kernel's engine has no debugger")
	} else {
		var out json.RawMessage
		if out, err = d.Debug(ctx, m.Content); err == nil {
			k.reply(ch, m, "debug_reply", out)
			return
		}
	}
	k.reply(ch, m, "debug_reply", map[string]any{"type": "response", "seq": req.Seq, "request_seq": req.Seq,
		"command": req.Command, "success": false, "message": "gocl's debugger: " + err.Error(), "body": map[string]any{}})
}
