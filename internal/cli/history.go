package cli

import (
	"log/slog"

	"github.com/seed43a1e1ab/gocl/kernel/history"
)

// openingHistory is the history file (kernel/history), opened beside the
// kernel's start rather than before it answers kernel_info: reading a long
// history takes time that a front end waiting for the kernel should not.
// Every use waits for the open; a file that could not be opened leaves the
// kernel without history, as dispatch's nil History does.
type openingHistory struct {
	done  chan struct{}
	store *history.Store // nil when history is off
}

// openHistory starts opening the default history file.
func openHistory(log *slog.Logger) *openingHistory {
	h := &openingHistory{done: make(chan struct{})}
	go func() {
		defer close(h.done)
		path, err := history.DefaultPath()
		if err != nil {
			log.Warn("history is off", "err", err)
			return
		}
		if h.store, err = history.Open(path); err != nil {
			log.Warn("history is off: cannot open the history file", "err", err)
		}
	}()
	return h
}

func (h *openingHistory) get() *history.Store {
	<-h.done
	return h.store
}

// Session is the history session of this kernel run (0: no history).
func (h *openingHistory) Session() int {
	if s := h.get(); s != nil {
		return s.Session()
	}
	return 0
}

// Add saves one executed cell.
func (h *openingHistory) Add(line int, input, output string) error {
	if s := h.get(); s != nil {
		return s.Add(line, input, output)
	}
	return nil
}

// NewSession starts a new session after a restart.
func (h *openingHistory) NewSession() error {
	if s := h.get(); s != nil {
		return s.NewSession()
	}
	return nil
}

// Tail answers a history_request of type tail.
func (h *openingHistory) Tail(n int, output bool) []history.Entry {
	if s := h.get(); s != nil {
		return s.Tail(n, output)
	}
	return nil
}

// Range answers a history_request of type range.
func (h *openingHistory) Range(session, start, stop int, output bool) []history.Entry {
	if s := h.get(); s != nil {
		return s.Range(session, start, stop, output)
	}
	return nil
}

// Search answers a history_request of type search.
func (h *openingHistory) Search(pattern string, n int, unique bool, output bool) []history.Entry {
	if s := h.get(); s != nil {
		return s.Search(pattern, n, unique, output)
	}
	return nil
}
