package clapi

import "sync"

// A PinnedHost's views are slices over C memory that Go cannot track. After
// Close, a stray write through one lands wherever the memory went: in a
// freed heap block (small allocations, on PoCL), it corrupts the C heap and
// aborts the process cells later, far from the mistake. So a small
// PinnedHost whose views were handed out stays mapped after Close, in a
// bounded quarantine: copies and views refuse it as closed, but writes
// through old views land in memory nobody else uses. The oldest is freed
// when the quarantine is full. Large ones are freed at once: the system
// unmaps them, so a stray write faults at the mistake (the supervised
// engine reports it).
const (
	// quarantineMaxEach is the largest PinnedHost kept: allocators hand out
	// blocks up to 32 MiB from the heap (glibc's largest mmap threshold).
	quarantineMaxEach = 32 << 20
	// quarantineBudget bounds what the quarantine holds in all.
	quarantineBudget = 256 << 20
)

var quarantine struct {
	mu    sync.Mutex
	held  []*PinnedHost
	bytes int64
}

// keepMapped closes p but keeps its memory mapped, if its views were handed
// out and it is small; it returns false when p must be freed now.
func (p *PinnedHost) keepMapped() bool {
	m := p.m
	m.mu.Lock()
	if m.done || !m.views || m.r.bytes > quarantineMaxEach {
		m.mu.Unlock()
		return false
	}
	m.done = true // views and copies refuse it from now on
	m.mu.Unlock()
	regions.close(m.r)
	if err := m.r.drain(); err != nil {
		panic(err)
	}
	quarantine.mu.Lock()
	quarantine.held = append(quarantine.held, p)
	quarantine.bytes += m.r.bytes
	var evict []*PinnedHost
	for quarantine.bytes > quarantineBudget && len(quarantine.held) > 1 {
		old := quarantine.held[0]
		quarantine.held = quarantine.held[1:]
		quarantine.bytes -= old.m.r.bytes
		evict = append(evict, old)
	}
	quarantine.mu.Unlock()
	for _, old := range evict {
		old.m.buf.Release() // releasing the buffer frees its mapping
	}
	return true
}
