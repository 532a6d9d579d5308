package suite

import (
	"fmt"
	"math"
	"time"

	"github.com/latgate/latgate/vocab"
)

// capacityLadder reads capacity.levels, a ladder of loads measured once
// each, in order, instead of a search: refused with from, to or step;
// ascending, unique, positive, whole users, at most vocab.MaxLadder.
func (p *parser) capacityLadder(name, ip string, rc *rawCapacity, c *Capacity, kl func(string) int) {
	for key, given := range map[string]bool{"from": rc.From != nil, "to": rc.To != nil, "step": rc.Step != nil} {
		if given {
			p.errf(kl(key), "scenario %q: capacity.%s: a ladder (capacity.levels) gives every level itself: drop %s, or drop levels for a search", name, key, key)
		}
	}
	raw := *rc.Levels
	switch {
	case len(raw) == 0:
		p.errf(kl("levels"), "scenario %q: capacity.levels is empty: give the loads to measure, such as [8, 16, 32, 64]", name)
		return
	case len(raw) > vocab.MaxLadder:
		p.errf(kl("levels"), "scenario %q: capacity.levels has %d levels: a ladder holds at most %d", name, len(raw), vocab.MaxLadder)
		return
	}
	ok := true
	for i := range raw {
		line := p.line(fmt.Sprintf("%s.levels[%d]", ip, i))
		v := p.load(name, c.Vary, fmt.Sprintf("levels[%d]", i), &raw[i], line, c.Line)
		if math.IsNaN(v) {
			ok = false
			continue
		}
		if n := len(c.Levels); n > 0 && !(v > c.Levels[n-1]) {
			p.errf(line, "scenario %q: capacity.levels[%d] (%s) is not above the level before it: a ladder goes up, each level once", name, i, raw[i].Value)
			ok = false
		}
		c.Levels = append(c.Levels, v)
	}
	if !ok {
		c.From, c.To = math.NaN(), math.NaN()
		return
	}
	c.From, c.To, c.Step = c.Levels[0], c.Levels[len(c.Levels)-1], 1
	if c.Vary == vocab.VaryRate {
		c.Step = 0.001 // capacity.LadderStep: a results file's resolution
	}
}

// ladderWindow reads capacity.window, a ladder's: each level's window in a
// run started at a shared time (--start-at), by default max_duration ÷ the
// levels; the windows must fit in max_duration.
func (p *parser) ladderWindow(name string, rc *rawCapacity, c *Capacity, kl func(string) int) {
	if rc.Window != nil && rc.Levels == nil {
		p.errf(kl("window"), "scenario %q: capacity.window is a ladder's (capacity.levels, run with --start-at): a search has no windows", name)
		return
	}
	n := time.Duration(len(c.Levels))
	if n == 0 {
		return
	}
	c.Window = c.MaxDuration / n
	if rc.Window == nil {
		return
	}
	v, err := ParseDuration(rc.Window.Value)
	if err == nil && v < time.Second {
		err = fmt.Errorf("want a duration of at least 1s such as 90s, got %q", rc.Window.Value)
	}
	if err != nil {
		p.errf(kl("window"), "scenario %q: capacity.window: %v", name, err)
		return
	}
	c.Window = v
	if v > c.MaxDuration/n { // v × n > max_duration, without v × n's overflow
		total := "" // v × n, when a duration holds it
		if v <= math.MaxInt64/n {
			total = fmt.Sprintf(" %s,", roundDuration(v*n))
		}
		p.errf(kl("window"), "scenario %q: capacity.window %s × %d levels is%s more than capacity.max_duration (%s): shorten the window or raise max_duration",
			name, roundDuration(v), n, total, roundDuration(c.MaxDuration))
	}
}

// ladderObjective refuses an objective a ladder's level cannot be shown to
// hold at: a ladder measures each level once, requests_per_level at least.
func (p *parser) ladderObjective(name string, b Budget, share, alpha float64, c *Capacity) {
	if need := vocab.MinHold(share, alpha); c.RequestsPerLevel < need {
		p.errf(b.Line, "scenario %q: capacity.slo: %s %s can be shown to hold at alpha %g only with %s requests at a level, and a ladder measures each level once, requests_per_level (%d): raise requests_per_level to %s",
			name, b.Metric, b.Stat, alpha, holdNeed(need), c.RequestsPerLevel, holdNeed(need))
	}
}
