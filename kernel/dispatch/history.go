package dispatch

import (
	"encoding/json"

	"github.com/seed43a1e1ab/gocl/kernel/history"
	"github.com/seed43a1e1ab/gocl/kernel/transport"
	"github.com/seed43a1e1ab/gocl/kernel/wire"
)

// History stores executed cells and answers history_request;
// *history.Store provides it. A nil History keeps no history.
type History interface {
	Session() int
	Add(line int, input, output string) error
	Tail(n int, output bool) []history.Entry
	Range(session, start, stop int, output bool) []history.Entry
	Search(pattern string, n int, unique bool, output bool) []history.Entry
}

// historyRequest is the content of history_request.
type historyRequest struct {
	Output         bool   `json:"output"`
	Raw            bool   `json:"raw"`
	HistAccessType string `json:"hist_access_type"`
	Session        int    `json:"session"`
	Start          int    `json:"start"`
	Stop           *int   `json:"stop"`
	N              *int   `json:"n"`
	Pattern        string `json:"pattern"`
	Unique         bool   `json:"unique"`
}

func (k *Kernel) history(ch transport.Channel, m *wire.Message) {
	var req historyRequest
	if err := json.Unmarshal(m.Content, &req); err != nil {
		k.reply(ch, m, "history_reply", map[string]any{"status": "error", "ename": "BadRequest",
			"evalue": "history_request content is not valid JSON: " + err.Error(), "traceback": []string{}, "history": []any{}})
		return
	}
	h := k.cfg.History
	var entries []history.Entry
	if h != nil {
		n := 10
		if req.N != nil {
			n = *req.N
		}
		switch req.HistAccessType {
		case "tail":
			entries = h.Tail(n, req.Output)
		case "range":
			stop := 0
			if req.Stop != nil {
				stop = *req.Stop
			}
			entries = h.Range(req.Session, req.Start, stop, req.Output)
		case "search":
			if req.N == nil {
				n = 0
			}
			entries = h.Search(req.Pattern, n, req.Unique, req.Output)
		}
	}
	out := make([]any, 0, len(entries))
	for _, e := range entries {
		out = append(out, e.Tuple(req.Output))
	}
	k.reply(ch, m, "history_reply", map[string]any{"status": "ok", "history": out})
}
