package supervisor

import (
	"time"

	"github.com/seed43a1e1ab/gocl/kernel/enginewire"
)

// An interrupt stops the running request's statement; the engine does that
// itself (kernel/engine/interrupt.go), and every value, func value and
// goroutine of the session survives it. The supervisor replaces the engine
// only when one statement is truly stuck, past a second press on that same
// statement: a press while no cell runs and nothing is stuck, or a press on
// another cell, never counts (issue 23: two runaway loops interrupted 1.5 s
// apart, or a press while idle followed by one on a cell, used to replace
// the engine and lose the session).
//
// A statement is stuck when the engine, asked while no cell runs, says an
// interrupted statement is still inside a compiled call (OpBlocked), or
// when the running request has not ended stuckAfter after its first press.

// press is what the supervisor remembers of interrupts: which request is
// running, which one's statement the engine reported stuck, and the last
// press that had a statement to stop.
type press struct {
	running uint64    // sequence number of the latest request (run)
	blocked uint64    // the request whose statement the engine reported stuck
	target  uint64    // the request the last counted press was for
	at      time.Time // when that press came
}

// setBlocked records the engine's word, at the end of a request, on whether
// an interrupted statement is stuck. s.mu is held.
func (s *Supervisor) setBlocked(b bool) {
	if b && !s.blocked {
		s.press.blocked = s.press.running
	}
	if !b {
		s.press.blocked = 0
	}
	s.blocked = b
}

// Interrupt is called for every interrupt request, besides the cancelling of
// the running cell's context. A second press on one stuck statement, within
// doubleInterrupt of the first, kills and replaces the engine, and the cell
// (or, when none runs, the next one) says so.
func (s *Supervisor) Interrupt() {
	now := time.Now()
	s.mu.Lock()
	p := s.p
	running := s.running
	target := s.press.running
	blocked := s.blocked
	if !running {
		target = s.press.blocked
	}
	s.mu.Unlock()
	if p == nil || target == 0 {
		return // idle with nothing stuck: nothing to count
	}
	if !running {
		// The engine's last word may be old: the statement may have
		// returned since. Ask.
		if !blocked || !s.askBlocked(p) {
			return
		}
	}
	s.mu.Lock()
	if s.p != p || s.running != running || (running && s.press.running != target) {
		s.mu.Unlock()
		return // the request ended or another began meanwhile
	}
	last := s.press
	second := last.target == target && now.Sub(last.at) < doubleInterrupt
	stuck := !running || now.Sub(last.at) >= stuckAfter
	if !second {
		s.press.target, s.press.at = target, now
	}
	replace := second && stuck
	if replace && !running {
		s.note += "gocl: the engine was replaced after a second interrupt, because a statement of an earlier cell was stuck " +
			"in a compiled call; the session's values were lost (funcs and types were declared again).\n"
	}
	s.mu.Unlock()
	if !replace {
		return
	}
	if s.cfg.Log != nil {
		s.cfg.Log.Warn("second interrupt of a statement stuck in a compiled call: replacing the engine", "pid", p.pid)
	}
	p.setKilled(killedByInterrupt)
	p.kill()
	if !running {
		s.replace(p, "second interrupt")
	}
}

// askBlocked asks an idle engine whether an interrupted statement is still
// stuck; no answer in time counts as no.
func (s *Supervisor) askBlocked(p *proc) bool {
	ch := make(chan bool, 1)
	go func() {
		var r enginewire.BlockedReply
		err := p.call(enginewire.OpBlocked, nil, &r)
		ch <- err == nil && r.Blocked
	}()
	select {
	case b := <-ch:
		return b
	case <-time.After(askBlocked):
		return false
	}
}
