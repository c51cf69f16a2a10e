package main

import "testing"

func TestParseConditions(t *testing.T) {
	conds, err := parseConditions("none,cspin:1ms,csleep:1ms,lockspin:1ms,spin:1ms,sleep:1ms,churn:4K")
	if err != nil {
		t.Fatal(err)
	}
	if len(conds) != 7 || conds[1].name != "cspin:1ms" || conds[2].wait != "" {
		t.Fatalf("parsed %+v", conds)
	}
	for _, bad := range []string{"cspin", "csleep:-1ms", "lockspin:x", "wait=nosuch", "bogus:1"} {
		if _, err := parseConditions(bad); err == nil {
			t.Errorf("-between %q parsed", bad)
		}
	}
	// wait=NAME needs the probe build's switch.
	_, err = parseConditions("wait=spinc")
	if (err == nil) != setWaitMode("spinc") {
		t.Errorf("wait=spinc: error %v, but the build can switch modes: %v", err, setWaitMode("spinc"))
	}
	setWaitMode("")
}

// The C waits report where they left the goroutine: a spin in C stays
// on its thread, and cgo's return is timed.
func TestCWaitRecords(t *testing.T) {
	b := &bench{}
	b.cWait(true, 200_000)
	a := b.last
	if a == nil || a.CPUStart < 0 || a.CgoReturn <= 0 || a.CgoReturn > 1 {
		t.Fatalf("after a C spin: %+v", a)
	}
	if a.ThreadMoved {
		t.Error("the thread changed inside one C call")
	}
}
