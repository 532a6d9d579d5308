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
// (and at most every 2 seconds) otherwise, so CI logs stay readable.
type progress struct {
	w        io.Writer
	tty      bool
	total    int
	plan     []planned
	mu       sync.Mutex
	done_    int
	failed   int
	lastPct  int
	lastLine time.Time
}

func newProgress(w io.Writer, tty bool, total int, plan []planned) *progress {
	if w == nil {
		w = io.Discard
	}
	return &progress{w: w, tty: tty, total: max(total, 1), plan: plan, lastPct: -1}
}

func (p *progress) record(group int, rec probe.Record, warmup bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done_++
	if !rec.OK {
		p.failed++
	}
	name := p.plan[group].scenario.Name + " @ " + p.plan[group].endpoint.Name
	pct := 100 * p.done_ / p.total
	if p.tty {
		width := 30
		fill := width * p.done_ / p.total
		fmt.Fprintf(p.w, "\r[%s%s] %d/%d %3d%% failed %d  %-40s", strings.Repeat("#", fill), strings.Repeat(" ", width-fill), p.done_, p.total, pct, p.failed, name)
		return
	}
	if pct/10 != p.lastPct/10 && time.Since(p.lastLine) > 2*time.Second || p.done_ == p.total {
		p.lastPct, p.lastLine = pct, time.Now()
		fmt.Fprintf(p.w, "latgate: %d/%d requests (%d%%), %d failed, now %s\n", p.done_, p.total, pct, p.failed, name)
	}
}

func (p *progress) done() {
	if p.tty {
		fmt.Fprintln(p.w)
	}
}
