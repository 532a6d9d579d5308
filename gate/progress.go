package gate

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/latgate/latgate/probe"
)

// progress reports on stderr: a bar on a terminal, a short line every 10%
// (and at most every 2 seconds) otherwise, so CI logs stay readable. It
// counts measured requests only (warmup requests are announced once), so
// its failures are the ones the results table shows; it gives the elapsed
// time and an estimate of the time left.
type progress struct {
	w        io.Writer
	tty      bool
	total    int // measured requests planned
	name     func(group int) string
	now      func() time.Time
	start    time.Time
	mu       sync.Mutex
	done_    int
	failed   int
	warmup   int
	lastPct  int
	lastLine time.Time
}

// newProgress reports total requests; name says which group a request
// belongs to ("scenario @ endpoint").
func newProgress(w io.Writer, tty bool, total int, name func(group int) string, now func() time.Time) *progress {
	if w == nil {
		w = io.Discard
	}
	if now == nil {
		now = time.Now
	}
	return &progress{w: w, tty: tty, total: max(total, 1), name: name, lastPct: -1, now: now, start: now()}
}

func (p *progress) record(group int, rec probe.Record, warmup bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if warmup {
		p.warmup++
		return
	}
	p.done_++
	if !rec.OK {
		p.failed++
	}
	name := p.name(group)
	pct := 100 * p.done_ / p.total
	now := p.now()
	elapsed := now.Sub(p.start)
	eta := "–"
	if p.done_ > 0 && p.done_ < p.total {
		eta = roundDur(time.Duration(float64(elapsed) / float64(p.done_) * float64(p.total-p.done_)))
	} else if p.done_ >= p.total {
		eta = "0s"
	}
	if p.tty {
		width := 30
		fill := min(width*p.done_/p.total, width)
		fmt.Fprintf(p.w, "\r[%s%s] %d/%d %3d%% failed %d  %s elapsed, ~%s left  %-30s", strings.Repeat("#", fill), strings.Repeat(" ", width-fill), p.done_, p.total, pct, p.failed, roundDur(elapsed), eta, name)
		return
	}
	if pct/10 != p.lastPct/10 && now.Sub(p.lastLine) > 2*time.Second || p.done_ == p.total {
		p.lastPct, p.lastLine = pct, now
		fmt.Fprintf(p.w, "latgate: %d/%d requests (%d%%), %d failed, %s elapsed, about %s left, now %s\n", p.done_, p.total, pct, p.failed, roundDur(elapsed), eta, name)
	}
}

func roundDur(d time.Duration) string {
	switch {
	case d >= time.Minute:
		return d.Round(time.Second).String()
	case d >= 10*time.Second:
		return d.Round(time.Second).String()
	}
	return d.Round(100 * time.Millisecond).String()
}

func (p *progress) done() {
	if p.tty {
		fmt.Fprintln(p.w)
	}
}
