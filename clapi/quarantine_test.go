package clapi

import "testing"

// A small PinnedHost whose views were taken stays mapped after Close, so a
// stray write through a view lands in memory nobody else uses; copies still
// refuse it, a large one is freed at once, and the quarantine's budget frees
// the oldest.
func TestClosedPinnedHostStaysMappedInQuarantine(t *testing.T) {
	ctx, q := testQueue(t)
	buf := NewBufferSize(ctx, ReadWrite, 4096)
	small := NewPinnedHost(q, 4096)
	v := small.Bytes()
	small.Close()
	if small.m.buf.handleOrNil() == nil {
		t.Fatal("a small PinnedHost with views was freed at Close")
	}
	v[0], v[4095] = 1, 2 // the stray write: memory still ours
	mustFail(t, func() { EnqueueCopy(q, buf, v) }, "closed or unmapped")
	mustFail(t, func() { small.Float64s() }, "closed")

	noViews := NewPinnedHost(q, 4096)
	noViews.Close()
	if noViews.m.buf.handleOrNil() != nil {
		t.Error("a PinnedHost whose views were never taken was kept")
	}
	large := NewPinnedHost(q, quarantineMaxEach+4096)
	_ = large.Bytes()
	large.Close()
	if large.m.buf.handleOrNil() != nil {
		t.Error("a PinnedHost larger than the quarantine's limit was kept")
	}

	// Fill the budget: the oldest kept one is freed first.
	var kept []*PinnedHost
	for i := 0; i < quarantineBudget/quarantineMaxEach+1; i++ {
		p := NewPinnedHost(q, quarantineMaxEach)
		_ = p.Bytes()
		p.Close()
		kept = append(kept, p)
	}
	if small.m.buf.handleOrNil() != nil {
		t.Error("the quarantine grew past its budget without freeing its oldest")
	}
	if last := kept[len(kept)-1]; last.m.buf.handleOrNil() == nil {
		t.Error("the newest closed PinnedHost was freed")
	}
}
