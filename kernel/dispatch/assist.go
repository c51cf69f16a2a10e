package dispatch

import (
	"encoding/json"

	"github.com/seed43a1e1ab/gocl/kernel/transport"
	"github.com/seed43a1e1ab/gocl/kernel/wire"
)

func (k *Kernel) assistant() (Assistant, bool) {
	a, ok := k.engine().(Assistant)
	return a, ok
}

func (k *Kernel) complete(ch transport.Channel, m *wire.Message) {
	var c struct {
		Code      string `json:"code"`
		CursorPos int    `json:"cursor_pos"`
	}
	_ = json.Unmarshal(m.Content, &c)
	reply := map[string]any{"status": "ok", "matches": []string{}, "cursor_start": c.CursorPos,
		"cursor_end": c.CursorPos, "metadata": map[string]any{}}
	if a, ok := k.assistant(); ok {
		matches, start, end, md := a.Complete(c.Code, c.CursorPos)
		if matches == nil {
			matches = []string{}
		}
		if md == nil {
			md = map[string]any{}
		}
		reply["matches"], reply["cursor_start"], reply["cursor_end"], reply["metadata"] = matches, start, end, md
	}
	k.reply(ch, m, "complete_reply", reply)
}

func (k *Kernel) inspect(ch transport.Channel, m *wire.Message) {
	var c struct {
		Code        string `json:"code"`
		CursorPos   int    `json:"cursor_pos"`
		DetailLevel int    `json:"detail_level"`
	}
	_ = json.Unmarshal(m.Content, &c)
	reply := map[string]any{"status": "ok", "found": false, "data": map[string]any{}, "metadata": map[string]any{}}
	if a, ok := k.assistant(); ok {
		if data, found := a.Inspect(c.Code, c.CursorPos, c.DetailLevel); found {
			reply["found"], reply["data"] = true, data
		}
	}
	k.reply(ch, m, "inspect_reply", reply)
}

func (k *Kernel) isComplete(ch transport.Channel, m *wire.Message) {
	var c struct {
		Code string `json:"code"`
	}
	_ = json.Unmarshal(m.Content, &c)
	reply := map[string]any{"status": "unknown"}
	if a, ok := k.assistant(); ok {
		status, indent := a.IsComplete(c.Code)
		reply["status"] = status
		if status == "incomplete" {
			reply["indent"] = indent
		}
	}
	k.reply(ch, m, "is_complete_reply", reply)
}
