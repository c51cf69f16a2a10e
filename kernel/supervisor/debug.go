package supervisor

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/seed43a1e1ab/gocl/kernel/enginewire"
)

// debugState is what the supervisor keeps of JupyterLab's debugger so that
// an engine that replaces a crashed one is in the state the front end
// believes: started, with its breakpoints and exception filters.
type debugState struct {
	events     func(json.RawMessage)
	started    json.RawMessage            // the initialize request, while started
	bps        map[string]json.RawMessage // source path -> its last setBreakpoints request
	exceptions json.RawMessage            // the last setExceptionBreakpoints request
}

// debugWait is how long a debug request may take in the engine; it never
// waits for a cell, so a longer one means an engine that no longer serves.
const debugWait = 10 * time.Second

// SetDebugEvents sets where the debugger's events go (dispatch publishes
// them as debug_event).
func (s *Supervisor) SetDebugEvents(f func(json.RawMessage)) {
	s.mu.Lock()
	s.debug.events = f
	s.mu.Unlock()
}

func (s *Supervisor) debugEvent(ev enginewire.Event) {
	s.mu.Lock()
	f := s.debug.events
	s.mu.Unlock()
	if f != nil && len(ev.Body) > 0 {
		f(ev.Body)
	}
}

// Debug forwards one DAP request to the engine process and returns its
// response. It is answered while a cell runs or is stopped.
func (s *Supervisor) Debug(ctx context.Context, request json.RawMessage) (json.RawMessage, error) {
	p, err := s.engineCtx(ctx) // waits for an engine still starting, as long as ctx allows
	if err != nil {
		return nil, err
	}
	reply, err := debugCall(ctx, p, request)
	if err != nil {
		return nil, err
	}
	s.noteDebug(request, reply)
	return reply, nil
}

func debugCall(ctx context.Context, p *proc, request json.RawMessage) (json.RawMessage, error) {
	id, ch, err := p.request(enginewire.OpDebug, request)
	if err != nil {
		return nil, err
	}
	timer := time.NewTimer(debugWait)
	defer timer.Stop()
	for {
		select {
		case ev, ok := <-ch:
			if !ok {
				return nil, errEngineGone
			}
			if ev.Kind != enginewire.EvDone {
				continue
			}
			var reply json.RawMessage
			if err := decodeDone(enginewire.OpDebug, ev, &reply); err != nil {
				return nil, err
			}
			return reply, nil
		case <-timer.C:
			p.forget(id)
			return nil, errors.New("the engine did not answer the debug request in time")
		case <-ctx.Done():
			p.forget(id)
			return nil, ctx.Err()
		}
	}
}

// noteDebug remembers what a fresh engine must be told again.
func (s *Supervisor) noteDebug(request, reply json.RawMessage) {
	var req struct {
		Command   string `json:"command"`
		Arguments struct {
			Source struct {
				Path string `json:"path"`
			} `json:"source"`
		} `json:"arguments"`
	}
	var rep struct {
		Success bool `json:"success"`
	}
	if json.Unmarshal(request, &req) != nil || json.Unmarshal(reply, &rep) != nil || !rep.Success {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch req.Command {
	case "initialize":
		s.debug.started = request
	case "setBreakpoints":
		if s.debug.bps == nil {
			s.debug.bps = map[string]json.RawMessage{}
		}
		s.debug.bps[req.Arguments.Source.Path] = request
	case "setExceptionBreakpoints":
		s.debug.exceptions = request
	case "disconnect":
		s.debug.started, s.debug.bps, s.debug.exceptions = nil, nil, nil
	}
}

// replayDebug starts the debugger again in a fresh engine, with the
// breakpoints and exception filters it had, when a front end had started it.
func (s *Supervisor) replayDebug(p *proc) {
	s.mu.Lock()
	started := s.debug.started
	var bps []json.RawMessage
	for _, r := range s.debug.bps {
		bps = append(bps, r)
	}
	if s.debug.exceptions != nil {
		bps = append(bps, s.debug.exceptions)
	}
	s.mu.Unlock()
	if started == nil {
		return
	}
	// Whatever was stopped died with the old engine: the front end drops
	// its stopped state.
	s.debugEvent(enginewire.Event{Kind: enginewire.EvDebug,
		Body: json.RawMessage(`{"seq":0,"type":"event","event":"continued","body":{"threadId":1,"allThreadsContinued":true}}`)})
	ctx := context.Background()
	for _, r := range append([]json.RawMessage{started}, bps...) {
		if _, err := debugCall(ctx, p, r); err != nil && s.cfg.Log != nil {
			s.cfg.Log.Warn("starting the debugger again in a fresh engine", "err", err)
		}
	}
}
