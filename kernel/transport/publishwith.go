package transport

import (
	"encoding/json"

	"github.com/seed43a1e1ab/gocl/kernel/wire"
)

// withExtras is queued content that carries metadata and binary buffers
// beside it; sendIOPub unwraps it.
type withExtras struct {
	content  json.RawMessage
	metadata map[string]any
	buffers  [][]byte
}

// PublishWith is Publish for a message with metadata and binary buffers:
// comm messages of widgets (comm_open's metadata names the widget protocol
// version; binary state travels as buffers). It is queued in order with
// everything else and never merged or dropped.
func (s *Server) PublishWith(parent *wire.Message, msgType string, content any, metadata map[string]any, buffers [][]byte) {
	raw, err := json.Marshal(content)
	if content == nil {
		raw, err = []byte("{}"), nil
	}
	if err != nil {
		s.log.Warn("transport: iopub message dropped: content does not marshal to JSON", "msg_type", msgType, "err", err)
		return
	}
	md := make(map[string]any, len(metadata))
	for k, v := range metadata {
		md[k] = v
	}
	bufs := make([][]byte, len(buffers))
	for i, b := range buffers {
		bufs[i] = append([]byte(nil), b...)
	}
	s.iopub.publish(msgType, parentHeader(parent), withExtras{content: raw, metadata: md, buffers: bufs})
}
