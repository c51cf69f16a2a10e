package viz

import (
	"strings"
	"testing"
	"time"
)

// TestCardSamples writes a page of cards to $VIZ_SAMPLES for a person to
// look at in a light and a dark theme.
func TestCardSamples(t *testing.T) {
	cards := []CopyCard{
		{Command: "EnqueueWriteBuffer", Direction: "host→device", HostMemory: "pageable", Bytes: refBytes, NonBlocking: true,
			HostBlocked: 497 * time.Millisecond, DeviceTime: 500 * time.Millisecond, Status: "complete", Device: "NVIDIA H200"},
		{Command: "EnqueueWriteBuffer", Direction: "host→device", HostMemory: "pinned", Bytes: refBytes, NonBlocking: true,
			HostBlocked: 40 * time.Microsecond, DeviceTime: 72 * time.Millisecond, Status: "complete", Device: "NVIDIA H200"},
		{Command: "EnqueueReadBuffer", Direction: "device→host", HostMemory: "pageable", Bytes: refBytes, NonBlocking: true,
			HostBlocked: 20 * time.Millisecond, DeviceTime: 72 * time.Millisecond, Status: "complete"},
	}
	var b strings.Builder
	for _, theme := range []string{"background:#fff;color:#111", "background:#111;color:#ddd"} {
		b.WriteString(`<div style="` + theme + `;padding:10px">`)
		for _, c := range cards {
			b.WriteString(EventCardHTML(c))
		}
		b.WriteString("</div>")
	}
	writeSample(t, "cards.html", "<!doctype html><meta charset=utf-8><body style=margin:0>"+b.String()+
		"<pre>"+EventCardText(cards[0])+EventCardText(cards[1])+"</pre>")
	for _, c := range cards {
		wellFormed(t, "card", EventCardHTML(c))
	}
}
