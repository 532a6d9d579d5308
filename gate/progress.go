package gate

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/latgate/latgate/probe"
)

// progress reports on stderr: first one line of the run's plan, then a bar
// on a terminal, or a short line every 10% (and at most every 2 seconds)
// otherwise, so CI logs stay readable. It counts measured requests only
// (warmup requests are timed, not counted), so its failures are the ones
// the results table shows; it gives the elapsed time and an estimate of
// the time left that counts the adaptive looks: the time to the next look,
// which may end a scenario, and the time if every scenario runs to max.
type progress struct {
	w   io.Writer
	tty bool
	// m is the measurement: its plan and groups, which capacity searches
	// extend with their levels as they go.
	m *measurement
	// looks tells where a group's next adaptive look is, in requests per
	// variant (0: none to come), and whether a look stopped it.
	looks   func(group int) (next int, stopped bool)
	total   int // measured requests planned, at max
	now     func() time.Time
	start   time.Time
	mu      sync.Mutex
	done_   int
	failed  int
	byGroup map[int]int
	wave    []time.Duration // the first wave's times, until the plan line
	planned bool
	// measured is when the measured requests began: the first one's end
	// less a request's time (warmup comes before).
	measured time.Time
	lastPct  int
	lastLine time.Time
}

func newProgress(w io.Writer, tty bool, m *measurement, looks func(int) (int, bool), now func() time.Time) *progress {
	if w == nil {
		w = io.Discard
	}
	if now == nil {
		now = time.Now
	}
	if looks == nil {
		looks = func(int) (int, bool) { return 0, false }
	}
	return &progress{w: w, tty: tty, m: m, looks: looks, total: max(m.measuredPlanned, 1),
		byGroup: map[int]int{}, lastPct: -10, now: now, start: now()} // -10: the first record prints
}

func (p *progress) record(group int, rec probe.Record, warmup bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	if !p.planned {
		// The plan's duration is the first wave's: the requests sent at
		// once when the run started, warmup included, each from its send.
		took := now.Sub(p.start)
		if !rec.Start.IsZero() && rec.Start.After(p.start) {
			took = now.Sub(rec.Start)
		}
		p.wave = append(p.wave, took)
		if len(p.wave) >= p.firstWave() {
			p.planned = true
			fmt.Fprintln(p.w, p.planText())
		}
	}
	if warmup {
		return
	}
	if p.done_++; p.done_ == 1 {
		p.measured = now.Add(-p.meanWave())
	}
	p.byGroup[group]++
	if !rec.OK {
		p.failed++
	}
	if p.planned { // the plan is the first line
		p.line(group, now)
	}
}

// line prints the progress after a measured record.
func (p *progress) line(group int, now time.Time) {
	name := p.m.name(group)
	pct := 100 * p.done_ / p.total
	elapsed := now.Sub(p.start)
	left := p.left(group, now.Sub(p.measured))
	if p.tty {
		width := 30
		fill := min(width*p.done_/p.total, width)
		fmt.Fprintf(p.w, "\r[%s%s] %d/%d %3d%% failed %d  %s elapsed, %s  %-30s", strings.Repeat("#", fill), strings.Repeat(" ", width-fill), p.done_, p.total, pct, p.failed, roundDur(elapsed), left, name)
		return
	}
	if pct/10 != p.lastPct/10 && now.Sub(p.lastLine) > 2*time.Second || p.done_ == p.total {
		p.lastPct, p.lastLine = pct, now
		fmt.Fprintf(p.w, "latgate: %d/%d requests (%d%%), %d failed, %s elapsed, %s, now %s\n", p.done_, p.total, pct, p.failed, roundDur(elapsed), left, name)
	}
}

// left estimates the time left at the pace of the measured requests so
// far (measuring for elapsed): to the current group's
// next look when it has one ("about 12s to the look at 200 per side, at
// most 1m30s left"), and in any case to every group's max (a group a look
// stopped counts what it measured).
func (p *progress) left(group int, elapsed time.Duration) string {
	if w := p.m.windows; w != nil {
		// A run of windows ends with its last window, whatever its pace.
		return "about " + roundDur(max(w.end.Sub(w.now()), 0)) + " left (the last window ends at " + clockText(w.end) + ")"
	}
	if p.done_ == 0 {
		return "time left: –"
	}
	// Per measured request, at this pace: until the requests in flight at
	// once have come back twice, the first wave's time over them (the
	// completions so far undercount a pool that is still on its first
	// requests).
	per := float64(elapsed) / float64(p.done_)
	if inFlight := p.inFlight(group); p.done_ < 2*inFlight {
		per = float64(p.meanWave()) / float64(inFlight)
	}
	rest := 0 // the groups before this one are done
	for g := group; g < len(p.m.groups); g++ {
		if _, stopped := p.looks(g); !stopped {
			rest += max(p.planOf(g)-p.byGroup[g], 0)
		}
	}
	search := p.searchLeft()
	if rest+search <= 0 {
		return "about 0s left"
	}
	most := roundDur(time.Duration(per * float64(rest+search)))
	next, stopped := p.looks(group)
	switch {
	case search > 0 && (next == 0 || stopped):
		// A capacity search ends at the first load its SLO fails.
		return "at most " + most + " left"
	case next == 0 || stopped:
		return "about " + most + " left"
	}
	need := max(next*p.sides(group)-p.byGroup[group], 0)
	return fmt.Sprintf("about %s to the look at %d%s, at most %s left", roundDur(time.Duration(per*float64(need))), next, perSideOf(p.m.groups[group]), most)
}

// searchLeft is the most measured requests the capacity searches may
// still send beyond the levels begun: their share of the plan's total
// less a full level for each level begun (whose own rest the groups
// count).
func (p *progress) searchLeft() int {
	n := p.total
	for g := range p.m.groups {
		n -= p.planOf(g)
	}
	return max(n, 0)
}

// planText is the plan line: the scenarios measured at one load (the
// groups before the first level of a capacity search), then the searches.
func (p *progress) planText() string {
	n := 0
	for n < len(p.m.plan) && p.m.plan[n].level == nil {
		n++
	}
	most := p.total
	for g := range n {
		most -= p.planOf(g)
	}
	searches := p.m.searchesPlan(max(most, 0))
	if n == 0 {
		return fmt.Sprintf("latgate: plan: %s; at %s a request (the first level's first wave)", searches, roundDur(p.meanWave()))
	}
	line := planLine(p.m.plan[:n], p.m.groups[:n], p.meanWave(), p.looks)
	if searches != "" {
		line += "; then " + searches
	}
	return line
}

// planOf is a group's measured requests planned (both variants).
func (p *progress) planOf(g int) int { return p.m.groups[g].Requests * p.sides(g) }

func (p *progress) sides(g int) int {
	if p.m.groups[g].Head != nil {
		return 2
	}
	return 1
}

func perSideOf(g probe.Group) string {
	if g.Head != nil {
		return " per side"
	}
	return ""
}

// firstWave is how many records the plan line waits for: the first
// group's requests in flight at once (all of them: the first to come back
// are the fastest), warmup first.
func (p *progress) firstWave() int {
	if len(p.m.groups) == 0 {
		return 1
	}
	g := p.m.groups[0]
	return min(p.inFlight(0), g.Warmup*p.sides(0)+p.planOf(0))
}

// inFlight is how many requests a group keeps in flight at once on all
// its lanes (in open loop, 4 stand for them).
func (p *progress) inFlight(g int) int {
	gr := p.m.groups[g]
	if gr.Rate > 0 {
		return 4
	}
	return max(gr.Concurrency, 1) * max(gr.Lanes, 1)
}

func (p *progress) meanWave() time.Duration {
	var sum time.Duration
	for _, d := range p.wave {
		sum += d
	}
	return sum / time.Duration(max(len(p.wave), 1))
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

// planLine is the run's plan in one line: its scenarios, requests per side
// (a range for adaptive ones), lanes, blocks, the adaptive design and its
// duration at the pace of the first wave of requests: from every adaptive
// scenario stopping at its first look to every one running to max.
func planLine(plan []planned, groups []probe.Group, per time.Duration, looks func(int) (int, bool)) string {
	ab, adaptive := false, false
	counts := map[string]bool{}
	var shortest, longest time.Duration
	for i, g := range groups {
		ab = ab || g.Head != nil
		first := g.Requests
		c := fmt.Sprint(g.Requests)
		if next, _ := looks(i); next > 0 && g.MinRequests > 0 {
			adaptive, first = true, g.MinRequests
			c = fmt.Sprintf("%d to %d", g.MinRequests, g.Requests)
		}
		counts[c] = true
		shortest += groupTime(g, first, per)
		if first < g.Requests {
			shortest += per // the requests in flight at the stop
		}
		longest += groupTime(g, g.Requests, per)
	}
	reqs := "requests"
	if len(counts) == 1 {
		for c := range counts {
			reqs = c + " requests"
		}
	} else {
		reqs = "requests by scenario"
	}
	s := fmt.Sprintf("latgate: plan: %s, %s", plural(len(plan), "scenario", "scenarios"), reqs)
	if ab {
		s += fmt.Sprintf(" per side, base and head interleaved in blocks of %d + %d", ABBlockSize, ABBlockSize)
	}
	g := groups[0]
	s += fmt.Sprintf(", %s of %s", plural(max(g.Lanes, 1), "lane", "lanes"), loadOf(g))
	if adaptive {
		s += ", adaptive (a look every " + fmt.Sprint(g.MinRequests) + perSideOf(g) + ", stopping early for a pass or a regression)"
	}
	d := "about " + roundDur(longest)
	if adaptive {
		d = roundDur(shortest) + " (a stop at the first look) to " + roundDur(longest) + " (to max)"
	}
	pace := "the first wave"
	if len(groups) > 1 {
		pace = "the first scenario's first wave; each scenario has its own pace"
	}
	return s + fmt.Sprintf("; at %s a request (%s): %s", roundDur(per), pace, d)
}

// groupTime is how long a group takes to measure n requests (per variant)
// at per a request, on all its lanes.
func groupTime(g probe.Group, n int, per time.Duration) time.Duration {
	sides := 1
	if g.Head != nil {
		sides = 2
	}
	lanes := max(g.Lanes, 1)
	if n > 0 && n <= len(g.At) { // a replay: the trace's times, then its last answer
		return g.At[n-1] + per
	}
	if g.Rate > 0 {
		return time.Duration(float64(n*sides)/float64(lanes)/g.Rate*float64(time.Second)) + per
	}
	waves := (n*sides + lanes*max(g.Concurrency, 1) - 1) / (lanes * max(g.Concurrency, 1))
	return time.Duration(waves) * per
}

// loadOf says one lane's load.
func loadOf(g probe.Group) string {
	if len(g.At) > 0 {
		return "a replay at the trace's times"
	}
	if g.Rate > 0 {
		return fmt.Sprintf("%g requests/s", g.Rate)
	}
	return plural(max(g.Concurrency, 1), "request", "requests") + " in flight"
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
