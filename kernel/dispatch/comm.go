package dispatch

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/seed43a1e1ab/gocl/kernel/cellio"
	"github.com/seed43a1e1ab/gocl/kernel/comm"
	"github.com/seed43a1e1ab/gocl/kernel/transport"
	"github.com/seed43a1e1ab/gocl/kernel/wire"
)

// Comms is the optional part of an Engine that serves Jupyter comms (and so
// ipywidgets); *supervisor.Supervisor provides it. Both calls carry plain
// data only: a comm.Message in, a Sink (with cellio.CommSink) for what
// handling it emits, a cellio.Result with the failure, if any.
type Comms interface {
	// Comm handles one comm_open, comm_msg or comm_close from the front end,
	// running what it triggers (widget callbacks) as a cell: interruptible
	// through ctx, output to sink.
	Comm(ctx context.Context, m comm.Message, sink cellio.Sink) cellio.Result
	// CommInfo lists the open comms, comm id -> target name, only those of
	// target when it is not empty.
	CommInfo(target string) map[string]string
}

// ExtraPublisher is the optional part of a Transport that publishes a
// message with metadata and binary buffers: comm messages of widgets, whose
// comm_open metadata names the widget protocol version (front ends refuse a
// widget without it) and whose binary state travels as buffers.
// *transport.Server provides it.
type ExtraPublisher interface {
	PublishWith(parent *wire.Message, msgType string, content any, metadata map[string]any, buffers [][]byte)
}

// commInfo answers comm_info_request.
func (k *Kernel) commInfo(ch transport.Channel, m *wire.Message) {
	var c struct {
		TargetName string `json:"target_name"`
	}
	_ = json.Unmarshal(m.Content, &c) // target_name is optional
	comms := map[string]any{}
	if ce, ok := k.engine().(Comms); ok {
		for id, target := range ce.CommInfo(c.TargetName) {
			comms[id] = map[string]any{"target_name": target}
		}
	}
	k.reply(ch, m, "comm_info_reply", map[string]any{"status": "ok", "comms": comms})
}

// comm hands a comm message from the front end to the engine, between the
// busy and idle that handle publishes, interruptible like a cell. A failure
// (a refused comm_open, a panicking callback the widget did not catch) is
// published as an error on IOPub with the comm message as parent and logged:
// comm messages have no reply to carry it.
func (k *Kernel) comm(ctx context.Context, m *wire.Message) {
	var c struct {
		CommID       string         `json:"comm_id"`
		TargetName   string         `json:"target_name"`
		TargetModule string         `json:"target_module"`
		Data         map[string]any `json:"data"`
	}
	if err := json.Unmarshal(m.Content, &c); err != nil || c.CommID == "" {
		if err == nil {
			err = fmt.Errorf("no comm_id")
		}
		k.log.Warn("bad comm message: ignored", "msg_type", m.Header.MsgType, "err", err)
		k.t.Publish(m, "error", errorContent(&cellio.CellError{Name: "BadCommMessage",
			Value: fmt.Sprintf("%s content is not valid: %v", m.Header.MsgType, err)}))
		return
	}
	cm := comm.Message{Type: m.Header.MsgType, CommID: c.CommID, TargetName: c.TargetName,
		TargetModule: c.TargetModule, Data: c.Data, Metadata: m.Metadata, Buffers: m.Buffers}
	ce, ok := k.engine().(Comms)
	if !ok {
		if cm.Type == comm.TypeOpen { // the spec: close a comm nobody can serve
			k.t.Publish(m, "comm_close", map[string]any{"comm_id": c.CommID, "data": map[string]any{}})
		}
		return
	}
	k.mu.Lock()
	cctx, cancel := context.WithCancel(ctx)
	k.cancel = cancel
	k.run.begin(m)
	k.mu.Unlock()
	defer func() {
		k.mu.Lock()
		k.cancel = nil
		k.mu.Unlock()
		cancel()
	}()
	sink := &cellSink{k: k, parent: m, ctx: cctx}
	res := ce.Comm(cctx, cm, sink)
	if res.Err != nil && res.Err.Name == cellio.CommRefused {
		k.log.Info("comm refused", "target_name", cm.TargetName, "comm_id", cm.CommID, "why", res.Err.Value)
	} else if res.Err != nil {
		k.log.Warn("comm message failed", "msg_type", cm.Type, "comm_id", cm.CommID, "target_name", cm.TargetName,
			"err", res.Err.Error())
		k.t.Publish(m, "error", errorContent(res.Err))
	}
	k.t.Flush(flushTimeout)
}

// Comm implements cellio.CommSink: it publishes a kernel-side comm message
// on IOPub with the request as parent, silent or not (widget state must
// reach the front end either way).
func (s *cellSink) Comm(m comm.Message) {
	content := m.Content()
	if len(m.Buffers) > 0 || len(m.Metadata) > 0 {
		if p, ok := s.k.t.(ExtraPublisher); ok {
			p.PublishWith(s.parent, m.Type, content, m.Metadata, m.Buffers)
			return
		}
		s.k.log.Error("comm message sent without its metadata and buffers: the transport cannot publish them",
			"msg_type", m.Type, "comm_id", m.CommID)
	}
	s.k.t.Publish(s.parent, m.Type, content)
}
