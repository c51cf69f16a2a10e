package display

import (
	"fmt"
	"html"
	"strings"
	"sync"
	"time"
)

// ProgressInterval is the least time between two redraws of a progress bar
// (the first and the final draw are never held back).
const ProgressInterval = 250 * time.Millisecond

// now is the clock of progress bars; tests replace it.
var now = time.Now

// ProgressBar is a progress bar drawn in the cell output and updated in
// place. Its methods are safe for concurrent use, so worker goroutines may
// call Add directly.
type ProgressBar struct {
	mu       sync.Mutex
	h        *Handle
	total    int
	count    int
	start    time.Time
	lastDraw time.Time
	done     bool
}

// Progress displays a progress bar towards total steps (total <= 0: an
// unknown total, counting steps only) and returns it. Call Add as work is
// done and Done at the end. However fast the loop calls Add, the bar is
// redrawn at most every ProgressInterval.
func Progress(total int) *ProgressBar {
	t := now()
	p := &ProgressBar{total: total, start: t, lastDraw: t}
	p.h = &Handle{id: newID()}
	show(p.bundle(t), p.h.id)
	return p
}

// Add records n more steps done and redraws the bar if it was last drawn
// ProgressInterval ago or more. Add after Done is ignored.
func (p *ProgressBar) Add(n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.done {
		return
	}
	p.count += n
	t := now()
	if t.Sub(p.lastDraw) < ProgressInterval {
		return
	}
	p.lastDraw = t
	update(p.bundle(t), p.h.id)
}

// Done draws the final state of the bar. Calling it again does nothing.
func (p *ProgressBar) Done() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.done {
		return
	}
	p.done = true
	t := now()
	p.lastDraw = t
	update(p.bundle(t), p.h.id)
}

// Count returns the number of steps recorded so far.
func (p *ProgressBar) Count() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.count
}

// String returns the bar as text, as its text/plain rendering shows it.
func (p *ProgressBar) String() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.text(now())
}

// bundle renders the bar at time t; p.mu is held.
func (p *ProgressBar) bundle(t time.Time) Bundle {
	label := p.label(t)
	var bar string
	if p.total > 0 {
		bar = fmt.Sprintf(`<progress value="%d" max="%d" style="width:20em;vertical-align:middle"></progress>`,
			clamp(p.count, 0, p.total), p.total)
	} else {
		bar = `<progress style="width:20em;vertical-align:middle"></progress>`
		if p.done {
			bar = `<progress value="1" max="1" style="width:20em;vertical-align:middle"></progress>`
		}
	}
	htm := `<div style="font-family:monospace">` + bar + " " + html.EscapeString(label) + "</div>"
	return Bundle{MIMEHTML: htm, MIMEText: p.text(t)}
}

// text is the text/plain form: "[#####.....] 50% 5000/10000 2.1 s, ~2.0 s left".
func (p *ProgressBar) text(t time.Time) string {
	const width = 20
	if p.total <= 0 {
		return p.label(t)
	}
	filled := width * clamp(p.count, 0, p.total) / p.total
	return "[" + strings.Repeat("#", filled) + strings.Repeat(".", width-filled) + "] " + p.label(t)
}

// label is the text after the bar: percentage, counts, elapsed and
// remaining time.
func (p *ProgressBar) label(t time.Time) string {
	elapsed := t.Sub(p.start)
	if p.total <= 0 {
		return fmt.Sprintf("%d %s", p.count, seconds(elapsed))
	}
	frac := float64(clamp(p.count, 0, p.total)) / float64(p.total)
	s := fmt.Sprintf("%d%% %d/%d %s", int(frac*100), p.count, p.total, seconds(elapsed))
	if !p.done && p.count > 0 && p.count < p.total {
		left := time.Duration(float64(elapsed) * (1 - frac) / frac)
		s += ", ~" + seconds(left) + " left"
	}
	return s
}

// seconds formats d as "2.1 s", or "3m05s" from a minute on.
func seconds(d time.Duration) string {
	if d < time.Minute {
		return fmt.Sprintf("%.1f s", d.Seconds())
	}
	d = d.Round(time.Second)
	h, m, s := int(d.Hours()), int(d.Minutes())%60, int(d.Seconds())%60
	if h > 0 {
		return fmt.Sprintf("%dh%02dm%02ds", h, m, s)
	}
	return fmt.Sprintf("%dm%02ds", m, s)
}

func clamp(x, lo, hi int) int {
	if x < lo {
		return lo
	}
	if x > hi {
		return hi
	}
	return x
}
