package dispatch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/seed43a1e1ab/gocl/kernel/cellio"
	"github.com/seed43a1e1ab/gocl/kernel/transport"
	"github.com/seed43a1e1ab/gocl/kernel/wire"
)

// executeRequest is the content of execute_request.
type executeRequest struct {
	Code            string            `json:"code"`
	Silent          bool              `json:"silent"`
	StoreHistory    *bool             `json:"store_history"`
	UserExpressions map[string]string `json:"user_expressions"`
	AllowStdin      *bool             `json:"allow_stdin"`
	StopOnError     *bool             `json:"stop_on_error"`
}

func (r *executeRequest) storeHistory() bool {
	if r.Silent {
		return false // the spec: silent implies store_history false
	}
	return r.StoreHistory == nil || *r.StoreHistory
}

func boolOr(p *bool, def bool) bool {
	if p == nil {
		return def
	}
	return *p
}

// execute runs one cell and answers it. It returns the bookkeeping that need
// not hold the client up (saving the cell to the history file), for handle
// to do after the idle status; nil when there is none.
func (k *Kernel) execute(ctx context.Context, ch transport.Channel, m *wire.Message) (after func()) {
	var req executeRequest
	if err := json.Unmarshal(m.Content, &req); err != nil {
		k.log.Warn("bad execute_request content", "err", err)
		k.reply(ch, m, "execute_reply", map[string]any{
			"status": "error", "ename": "BadRequest", "evalue": "execute_request content is not valid JSON: " + err.Error(),
			"traceback": []string{}, "execution_count": k.count(),
		})
		return nil
	}
	k.mu.Lock()
	if req.storeHistory() {
		k.execCount++
	}
	count := k.execCount
	cellCtx, cancel := context.WithCancel(ctx)
	k.cancel = cancel
	k.run.begin(m)
	eng := k.eng
	k.mu.Unlock()
	defer func() {
		k.mu.Lock()
		k.cancel = nil
		k.mu.Unlock()
		cancel()
	}()

	if !req.Silent {
		k.t.Publish(m, "execute_input", map[string]any{"code": req.Code, "execution_count": count})
	}
	if askExit(cellCtx, eng, req.Code) {
		k.t.Flush(flushTimeout)
		k.reply(ch, m, "execute_reply", map[string]any{
			"status": "ok", "execution_count": count, "user_expressions": map[string]any{},
			"payload": []any{map[string]any{"source": "ask_exit", "keepkernel": false}},
		})
		return nil
	}
	sink := &cellSink{k: k, parent: m, silent: req.Silent, allowStdin: boolOr(req.AllowStdin, false), ctx: cellCtx}
	res := eng.Execute(cellCtx, req.Code, sink)
	if req.storeHistory() && k.cfg.History != nil {
		after = func() {
			if err := k.cfg.History.Add(count, req.Code, plainText(res.Data)); err != nil {
				k.log.Warn("saving history failed", "err", err)
			}
		}
	}

	if res.Err != nil {
		content := errorContent(res.Err)
		if !req.Silent {
			k.t.Publish(m, "error", content)
		}
		content["status"] = "error"
		content["execution_count"] = count
		content["user_expressions"] = map[string]any{}
		content["payload"] = []any{}
		// Count the queued requests before replying: a client that sees the
		// error reply may send its next cell at once, and that one must run.
		queued := len(k.t.Shell())
		k.t.Flush(flushTimeout)
		k.reply(ch, m, "execute_reply", content)
		if boolOr(req.StopOnError, true) {
			k.abortQueued(ch, queued)
		}
		return after
	}
	if res.Data != nil && !req.Silent {
		md := res.Metadata
		if md == nil {
			md = map[string]any{}
		}
		k.t.Publish(m, "execute_result", map[string]any{"execution_count": count, "data": res.Data, "metadata": md})
	}
	content := map[string]any{
		"status":           "ok",
		"execution_count":  count,
		"user_expressions": k.userExpressions(cellCtx, eng, req.UserExpressions),
		"payload":          []any{},
	}
	k.t.Flush(flushTimeout)
	k.reply(ch, m, "execute_reply", content)
	return after
}

// askExit reports whether a cell is a request to leave a terminal front end:
// exit or quit (with or without parentheses) alone, when no cell declared that
// name. ipykernel answers these with the ask_exit payload, on which
// jupyter console and qtconsole close; gocl does the same, and runs nothing.
func askExit(ctx context.Context, eng Engine, code string) bool {
	name := strings.TrimSuffix(strings.TrimSpace(code), "()")
	if name != "exit" && name != "quit" {
		return false
	}
	_, cerr := eng.Evaluate(ctx, name)
	return cerr != nil // a cell's own exit or quit runs as written
}

// flushTimeout bounds the wait for queued output before a reply: streams
// still paced in the IOPub queue go out first, as ipykernel flushes its
// streams before replying, so a front end that stops listening at the reply
// has them all. Output beyond it still follows, in order, before the idle
// status.
const flushTimeout = 500 * time.Millisecond

func (k *Kernel) count() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.execCount
}

func errorContent(e *cellio.CellError) map[string]any {
	tb := e.Traceback
	if tb == nil {
		tb = []string{}
	}
	return map[string]any{"ename": e.Name, "evalue": e.Value, "traceback": tb}
}

func plainText(b cellio.Bundle) string {
	s, _ := b.Text("text/plain")
	return s
}

// exprTimeout bounds the evaluation of one user expression: one that holds
// (a channel receive that never comes, a long loop) is stopped, and the
// reply says which one, so that it never wedges the kernel.
var exprTimeout = 3 * time.Second

// userExpressions evaluates user_expressions after a successful cell, each
// into a display bundle or an error, as the messaging spec describes. Each
// obeys an interrupt of the cell and exprTimeout.
func (k *Kernel) userExpressions(ctx context.Context, eng Engine, exprs map[string]string) map[string]any {
	out := map[string]any{}
	for name, expr := range exprs {
		if ctx.Err() != nil {
			out[name] = exprError("Interrupted", fmt.Sprintf("user expression %q was not evaluated: the cell was interrupted", name))
			continue
		}
		ectx, cancel := context.WithTimeout(ctx, exprTimeout)
		data, cerr := eng.Evaluate(ectx, expr)
		timedOut := ectx.Err() == context.DeadlineExceeded && ctx.Err() == nil
		cancel()
		if timedOut {
			out[name] = exprError("Timeout", fmt.Sprintf("user expression %q (%s) did not finish within %v and was stopped",
				name, expr, exprTimeout))
			continue
		}
		if cerr != nil {
			c := errorContent(cerr)
			c["status"] = "error"
			out[name] = c
			continue
		}
		if data == nil {
			data = cellio.Bundle{}
		}
		out[name] = map[string]any{"status": "ok", "data": data, "metadata": map[string]any{}}
	}
	return out
}

// exprError is the user_expressions entry of an expression that has no value.
func exprError(ename, evalue string) map[string]any {
	return map[string]any{"status": "error", "ename": ename, "evalue": evalue, "traceback": []string{ename + ": " + evalue}}
}

// abortQueued answers the first queued execute requests behind a failed cell
// with status "aborted", as ipykernel does for stop_on_error: the queued
// requests the transport had received when the cell failed. Requests sent
// after the client saw the error reply are served normally.
func (k *Kernel) abortQueued(ch transport.Channel, queued int) {
	if ch != transport.Shell {
		return
	}
	for n := queued; n > 0; n-- {
		m, ok := <-k.t.Shell()
		if !ok {
			return
		}
		if m.Header.MsgType != "execute_request" {
			k.handle(context.Background(), transport.Shell, m)
			continue
		}
		k.t.Publish(m, "status", map[string]any{"execution_state": "busy"})
		// Like ipykernel, no execution_count: the cell did not run, and
		// front ends show it as never run (In [ ]).
		k.reply(transport.Shell, m, "execute_reply", map[string]any{"status": "aborted"})
		k.t.Publish(m, "status", map[string]any{"execution_state": "idle"})
	}
}

// cellSink turns what a running cell emits into IOPub and stdin messages.
type cellSink struct {
	k          *Kernel
	parent     *wire.Message
	silent     bool
	allowStdin bool
	ctx        context.Context
}

func (s *cellSink) Stream(name, text string) {
	if s.silent || text == "" {
		return
	}
	s.k.t.PublishStream(s.parent, name, text)
}

func (s *cellSink) Display(m cellio.Message) {
	if s.silent {
		return
	}
	switch m.Kind {
	case cellio.KindClear:
		s.k.t.Publish(s.parent, "clear_output", map[string]any{"wait": m.Wait})
		return
	}
	md := m.Metadata
	if md == nil {
		md = map[string]any{}
	}
	data := m.Data
	if data == nil {
		data = cellio.Bundle{}
	}
	content := map[string]any{"data": data, "metadata": md, "transient": map[string]any{}}
	if m.DisplayID != "" {
		content["transient"] = map[string]any{"display_id": m.DisplayID}
	}
	typ := "display_data"
	if m.Kind == cellio.KindUpdate {
		typ = "update_display_data"
	}
	s.k.t.Publish(s.parent, typ, content)
}

// ErrStdinNotAllowed is returned to a cell that reads stdin when the front
// end did not allow input.
// It is cellio.ErrNoStdin, so that gocl run fails the same way.
var ErrStdinNotAllowed = cellio.ErrNoStdin

func (s *cellSink) Input(prompt string, password bool) (string, error) {
	if !s.allowStdin {
		return "", ErrStdinNotAllowed
	}
	// Forget a stale reply left from an interrupted request.
	select {
	case <-s.k.replies:
	default:
	}
	if err := s.k.t.Send(transport.Stdin, s.parent, "input_request",
		map[string]any{"prompt": prompt, "password": password}, nil); err != nil {
		return "", fmt.Errorf("sending input_request: %w", err)
	}
	select {
	case <-s.ctx.Done():
		return "", fmt.Errorf("input interrupted: %w", s.ctx.Err())
	case r := <-s.k.replies:
		var c struct {
			Value  string `json:"value"`
			Status string `json:"status"`
		}
		if err := json.Unmarshal(r.Content, &c); err != nil {
			return "", fmt.Errorf("bad input_reply: %w", err)
		}
		if c.Status == "error" {
			return "", errors.New("the front end cancelled the input request")
		}
		return c.Value, nil
	}
}
