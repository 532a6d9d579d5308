package gate

import (
	"context"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/latgate/latgate/capacity"
	"github.com/latgate/latgate/probe"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/suite"
	"github.com/latgate/latgate/vocab"
)

// A run started at a shared time (--start-at) measures the capacity
// ladders of its suite (capacity.levels) in windows that every leg of a
// sharded matrix shares: the k-th level the plan measures (base and head
// taking turns in an A/B run, the searches one after another) in the
// window [start + the windows before it, + its own capacity.window). A
// leg waits for its window, drives its level's load until the window
// ends (sending no request after it), then waits for the requests still
// in flight and records them: a request cut off would leave the slowest
// out, and the next window starts at its time or once they are in,
// whichever is later (its recorded start says so; merge --shards measures
// what the legs drove together). Such a run measures ladders only: a
// scenario at one load or a search would move every later window, so the
// plan refuses it.

// MaxStartAhead is how far ahead --start-at may be.
const MaxStartAhead = 24 * time.Hour

// ParseStartAt reads --start-at: an RFC 3339 time, or +DURATION from now
// (+90s, +5m).
func ParseStartAt(s string, now time.Time) (time.Time, error) {
	if rest, ok := strings.CutPrefix(s, "+"); ok {
		d, err := time.ParseDuration(rest)
		if err != nil {
			if n, e := strconv.Atoi(rest); e == nil {
				return time.Time{}, BadInputf("--start-at %q: a duration needs its unit: +%ds", s, n)
			}
			return time.Time{}, BadInputf("--start-at %q: want +DURATION such as +90s, or an RFC 3339 time such as 2025-06-01T10:00:00Z", s)
		}
		return now.Add(d).UTC(), nil
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return time.Time{}, BadInputf("--start-at %q: want an RFC 3339 time such as 2025-06-01T10:00:00Z, or +DURATION such as +90s", s)
	}
	return t.UTC(), nil
}

// startAt is --start-at read now (zero for "").
func startAt(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	return ParseStartAt(s, time.Now())
}

// windows are the windows of a run started at a shared time: where the
// next one starts, and the most requests each level may send.
type windows struct {
	next time.Time
	// perLevel are the measured requests each level may send at most, per
	// search (capacity.max_requests ÷ its levels, or limits.max_requests ÷
	// every level of the run), its warmup apart.
	perLevel map[*suite.Capacity]int
	now      func() time.Time
	// end is when the last window ends.
	end time.Time
}

// take is the window of a level of length d: where it starts and ends.
func (w *windows) take(d time.Duration) (start, end time.Time) {
	start = w.next
	w.next = start.Add(d)
	return start, w.next
}

// planWindows checks a run started at start (before any request: bad
// input) and plans its windows: only capacity ladders, a start ahead and
// within MaxStartAhead, each level able to send its requests_per_level.
func (m *measurement) planWindows(cfg *suite.Config, start time.Time, now func() time.Time) error {
	t := now()
	switch {
	case !start.After(t):
		return BadInputf("--start-at %s is %s in the past: every leg must start before it; give a later time", start.Format(time.RFC3339), roundDur(t.Sub(start)))
	case start.Sub(t) > MaxStartAhead:
		return BadInputf("--start-at %s is %s away, more than %s", start.Format(time.RFC3339), roundDur(start.Sub(t)), roundDur(MaxStartAhead))
	case len(m.groups) > 0:
		return BadInputf("--start-at: scenario %q is measured at one load: a run started at a shared time measures capacity ladders only (capacity.levels), each level in its window; run the other scenarios apart (--scenario)", m.plan[0].scenario.Name)
	case len(m.searches) == 0:
		return BadInputf("--start-at: the suite has no capacity ladder (capacity.levels) to measure in windows")
	}
	levels := 0
	for _, sp := range m.searches {
		c := sp.head.scenario.Capacity
		if c.Levels == nil {
			return BadInputf("--start-at: scenario %q's capacity is a search (from, to): a run started at a shared time measures ladders (capacity.levels), which every leg drives alike", sp.head.scenario.Name)
		}
		levels += len(c.Levels) * len(sp.sides())
	}
	w := &windows{next: start, end: start, perLevel: map[*suite.Capacity]int{}, now: now}
	m.total, m.measuredPlanned = 0, 0
	for _, sp := range m.searches {
		for _, pl := range sp.sides() {
			s := pl.scenario
			c := s.Capacity
			w.end = w.end.Add(c.Window * time.Duration(len(c.Levels)))
			n := cfg.Limits.MaxRequests/levels - s.Warmup
			what := fmt.Sprintf("limits.max_requests (%d) ÷ the run's %d levels", cfg.Limits.MaxRequests, levels)
			if c.MaxRequests > 0 {
				n = c.MaxRequests/len(c.Levels) - s.Warmup
				what = fmt.Sprintf("capacity.max_requests (%d) ÷ its %d levels", c.MaxRequests, len(c.Levels))
			}
			if n < c.RequestsPerLevel {
				return BadInputf("--start-at: scenario %q: %s leaves %d requests a level beyond its warmup (%d), fewer than requests_per_level (%d): raise the cap", s.Name, what, max(n, 0), s.Warmup, c.RequestsPerLevel)
			}
			w.perLevel[c] = n
			m.total += len(c.Levels) * (n + s.Warmup)
			m.measuredPlanned += len(c.Levels) * n
		}
	}
	m.windows = w
	return nil
}

// sides are the search's variants: the base's first, as they take turns.
func (sp searchPlan) sides() []planned {
	if sp.base != nil {
		return []planned{*sp.base, sp.head}
	}
	return []planned{sp.head}
}

// windowsPlan says a run's windows before it waits for the first: "4
// levels, windows of 1m30s from 10:00:00Z to 10:06:00Z".
func (m *measurement) windowsPlan(log io.Writer) {
	if log == nil || m.windows == nil {
		return
	}
	w := m.windows
	var each []string
	levels := 0
	for _, sp := range m.searches {
		for i, pl := range sp.sides() {
			c := pl.scenario.Capacity
			levels += len(c.Levels)
			each = append(each, fmt.Sprintf("%s @ %s%s: %d levels (%s), windows of %s, at most %d requests a level",
				pl.scenario.Name, pl.endpoint.Name, sideWord(sp, i), len(c.Levels), ladderWords(c), roundDur(c.Window), w.perLevel[c]))
		}
	}
	fmt.Fprintf(log, "latgate: --start-at: %s, %d windows from %s to %s, each level's load driven for its whole window; waiting %s for the first\n",
		strings.Join(each, "; "), levels, clockText(w.next), clockText(w.end), roundDur(w.next.Sub(w.now())))
}

// sideWord names the i-th of a search's sides (sides) in an A/B run.
func sideWord(sp searchPlan, i int) string {
	switch {
	case sp.base == nil:
		return ""
	case i == 0:
		return " (base)"
	}
	return " (head)"
}

func clockText(t time.Time) string { return t.UTC().Format("15:04:05Z") }

// ladderWords are a ladder's levels: "8, 16, 32, 64 users".
func ladderWords(c *suite.Capacity) string {
	var vs []string
	for _, v := range c.Levels {
		vs = append(vs, strconv.FormatFloat(v, 'g', -1, 64))
	}
	unit := "users"
	if c.Vary == vocab.VaryRate {
		unit = "requests/s"
	}
	return strings.Join(vs, ", ") + " " + unit
}

// windowSpec is a ladder's spec in a run of windows: each level may send
// its share of requests (windows.perLevel), and the windows bound its
// time (capacity.max_duration is the windows').
func (m *measurement) windowSpec(sp capacity.Spec, c *suite.Capacity, warmup int) capacity.Spec {
	if m.windows == nil {
		return sp
	}
	sp.MaxRequests = len(c.Levels) * (m.windows.perLevel[c] + warmup)
	sp.MaxDurationMs = 0
	return sp
}

// windowOf waits for the window of a level of ss (false: the run was
// interrupted first) and makes g drive its load until the window ends:
// its share of requests, and a look after every record that stops it once
// the window is over. The level's label gets the window.
func (m *measurement) windowOf(ctx context.Context, ss *sideSearch, g *probe.Group, label *results.Level) bool {
	if m.windows == nil {
		return true
	}
	c := ss.pl.scenario.Capacity
	start, end := m.windows.take(c.Window)
	if err := waitUntil(ctx, m.windows.now, start); err != nil {
		return false
	}
	now := m.windows.now
	g.Requests, g.MinRequests, g.Batch = m.windows.perLevel[c], 1, 1
	g.Decide = func(int) bool { return !now().Before(end) }
	label.Window = &results.Window{Start: start.UTC(), Ms: float64(c.Window) / 1e6}
	return true
}

// waitUntil waits until t by now's clock, or until ctx ends.
func waitUntil(ctx context.Context, now func() time.Time, t time.Time) error {
	d := t.Sub(now())
	if d <= 0 {
		return ctx.Err()
	}
	tm := time.NewTimer(d)
	defer tm.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-tm.C:
		return nil
	}
}

// sentFrom notes, from a level's measured record, when the level's
// sent_ms count from (the record's start less its sent_at).
func sentFrom(label *results.Level, rec probe.Record) {
	if w := label.Window; w != nil && w.SentFrom.IsZero() && rec.SentAt != probe.Missing {
		w.SentFrom = rec.Start.Add(-rec.SentAt).UTC()
	}
}

// windowShort says when a level of a run of windows that was not cut
// stopped driving its load before its window ended: it sent its share of
// requests (the only other way a window's level ends early).
func (m *measurement) windowShort(ss *sideSearch, label *results.Level, res probe.Result, last time.Time) {
	w := label.Window
	if m.log == nil || w == nil || res.Cause != "" {
		return
	}
	if end := w.Start.Add(time.Duration(w.Ms * 1e6)); last.Before(end) {
		fmt.Fprintf(m.log, "latgate: warning: capacity of %s at %g: its requests ended at %s, %s before its window did (it sent its share, %d): the legs drove the level together for less than its window; raise capacity.max_requests or limits.max_requests\n",
			ss.pl.scenario.Name+" @ "+ss.pl.endpoint.Name, label.Value, clockText(last), roundDur(end.Sub(last)), m.windows.perLevel[ss.pl.scenario.Capacity])
	}
}

// windowFew says when a level of a run of windows (not cut) measured
// fewer requests in its window than requests_per_level: a ladder's level
// is first decided at requests_per_level (times the legs, merged), so it
// cannot be shown to hold, on this leg nor merged with legs like it, and
// its report says "undecided … (stopped early)". The window the level's
// pace needs is said (rounded up to a second).
func (m *measurement) windowFew(ss *sideSearch, label *results.Level, res probe.Result, n int) {
	c := ss.pl.scenario.Capacity
	w := label.Window
	if m.log == nil || w == nil || res.Cause != "" || n >= c.RequestsPerLevel {
		return
	}
	need := "a longer capacity.window"
	if n > 0 {
		d := time.Duration(math.Ceil(w.Ms*float64(c.RequestsPerLevel)/float64(n)/1000)) * time.Second
		need = "capacity.window of about " + roundDur(d)
	}
	fmt.Fprintf(m.log, "latgate: warning: capacity of %s at %g: its window of %s held %d measured requests, fewer than requests_per_level (%d), at which a ladder's level is first decided: it cannot be shown to hold, on this leg nor merged with legs like it; give it %s\n",
		ss.pl.scenario.Name+" @ "+ss.pl.endpoint.Name, label.Value, roundDur(time.Duration(w.Ms*1e6)), n, c.RequestsPerLevel, need)
}

// windowWarning says when the legs of a merged ladder's level drove it
// together for less than results.OverlapFlag of its window: its load on
// the server was theirs together for that long only.
func windowWarning(name string, r *results.Run) string {
	if r.Level == nil || r.Level.Window == nil || r.Level.Window.TogetherMs == nil {
		return ""
	}
	w := r.Level.Window
	share := *w.TogetherMs / w.Ms
	if share >= results.OverlapFlag {
		return ""
	}
	return fmt.Sprintf("%s at %s %g: its %d legs drove the level together for %s of its %s window (%.0f %%): its load on the server was theirs together for that long only, so the level is decided from requests partly sent at less load; give every leg the same --start-at, and requests enough to drive the whole window",
		name, r.Level.Vary, r.Level.Value, r.Shards, roundDur(time.Duration(*w.TogetherMs*1e6)), roundDur(time.Duration(w.Ms*1e6)), 100*share)
}
