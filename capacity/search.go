// Package capacity searches the capacity of a scenario at its SLO: the
// highest load (users at once, or requests per second) at which every
// objective of the SLO holds with confidence. It is pure: the caller
// measures each level the search asks for (Next) and hands its run back
// (Add); the search reads no clock and does no I/O, so it is decided
// again from a results file's levels exactly as it was while measuring
// (Replay), and compared between two variants (Compare).
//
// A level passes when every objective holds with confidence: the budget
// check of package compare, one-sided at alpha, on the level's requests
// (compare.TestBudget; a failed request misses every latency objective),
// and the server is not saturated. The search brackets (from, 2·from,
// 4·from, … up to to) until a level does not pass, then bisects between
// the highest passing level and the lowest other one until they are one
// step apart. It assumes that a level beyond one that fails does not pass.
//
// Saturation ends it early: a level whose throughput rose by less than a
// quarter of the added load over the nearest passing level below it (at
// least 1.5 times below) fails, saturated: more load only queues. A level
// stops early, before requests_per_level, once it can no longer pass and
// already fails with confidence (Hopeless): a level whose median is over
// the budget stops after about ten requests. Caps on the whole search's
// requests and time cut it: a cut search says so and is never a pass.
package capacity

import (
	"math"

	"github.com/latgate/latgate/compare"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/vocab"
)

// Spec is a capacity search.
type Spec struct {
	Vary           vocab.Vary
	From, To, Step float64
	// Requests are the measured requests of a level; Warmup the requests
	// a level sends first (they count toward MaxRequests).
	Requests, Warmup int
	// SLO are the objectives (milliseconds for latencies; errors.rate a
	// ceiling, goodput.rate a floor, as fractions); Goodput the
	// per-request SLO a goodput.rate objective counts.
	SLO     []compare.Budget
	Goodput []compare.SLO
	Alpha   float64
	// MaxRequests caps the requests the whole search sends, warmup
	// included, and MaxDurationMs its time (0: no cap). A level that
	// would send more than the requests left is not started.
	MaxRequests   int
	MaxDurationMs float64
}

// Batch is how often, in measured requests, a level is looked at to stop
// it early (Hopeless).
const Batch = 5

// Search is one capacity search in progress.
type Search struct {
	spec   Spec
	levels []Level
	next   float64 // the level to measure next; NaN when done
	lo, hi int     // indexes of the highest passing and lowest other level; -1 none
	sent   int
	ms     float64
	stop   vocab.Stop
}

// New starts a search at spec.From.
func New(spec Spec) *Search {
	return &Search{spec: spec, next: spec.From, lo: -1, hi: -1}
}

// Next is the load of the level to measure next; false when the search is
// done (found, at an end of the range, or cut by a cap).
func (s *Search) Next() (float64, bool) {
	if s.stop != "" {
		return 0, false
	}
	sp := s.spec
	if sp.MaxRequests > 0 && s.sent+sp.Requests+sp.Warmup > sp.MaxRequests ||
		sp.MaxDurationMs > 0 && s.ms >= sp.MaxDurationMs {
		s.stop = vocab.Capped
		return 0, false
	}
	return s.next, true
}

// Cut ends the search for why (vocab.Interrupted, vocab.Capped,
// vocab.FailedFast): the run cut the level in progress short (added or
// not), so the search did not end as it would have. The first cut stays.
func (s *Search) Cut(why vocab.Stop) {
	if !s.IsCut() {
		s.stop = why
	}
}

// IsCut reports whether the search was cut: by a cap, an interruption or
// fail-fast; such a search is never a pass.
func (s *Search) IsCut() bool { return cut(s.stop) }

func cut(stop vocab.Stop) bool {
	return stop == vocab.Capped || stop == vocab.Interrupted || stop == vocab.FailedFast
}

// Add decides the level just measured (the one Next gave) from its run,
// the requests it sent (warmup included) and its time, and plans the
// next one.
func (s *Search) Add(run *results.Run, sent int, ms float64) Level {
	lv := s.decide(run)
	s.sent += sent
	s.ms += ms
	s.record(lv)
	return lv
}

// record adds a decided level and plans the next one.
func (s *Search) record(lv Level) {
	s.levels = append(s.levels, lv)
	i := len(s.levels) - 1
	if lv.Passes() {
		s.lo = i
	} else if s.hi < 0 || s.levels[s.hi].Value > lv.Value {
		s.hi = i
	}
	s.plan()
}

// plan sets the next level, or why the search ends.
func (s *Search) plan() {
	sp := s.spec
	lo, hi := math.NaN(), math.NaN()
	if s.lo >= 0 {
		lo = s.levels[s.lo].Value
	}
	if s.hi >= 0 {
		hi = s.levels[s.hi].Value
	}
	switch {
	case s.hi < 0 && lo >= sp.To:
		s.stop = vocab.AtTop
	case s.hi < 0:
		s.next = math.Min(sp.To, s.snap(2*lo))
		if s.next <= lo {
			s.next = math.Min(sp.To, lo+sp.Step)
		}
	case s.lo < 0 || hi <= lo:
		// Nothing passes below the lowest failing level (a level that
		// passes above one that failed is not searched beyond).
		s.stop = vocab.AtBottom
		if s.lo >= 0 {
			s.stop = vocab.Found
		}
	case hi-lo <= sp.Step*(1+1e-9):
		s.stop = vocab.Found
	default:
		s.next = s.snap((lo + hi) / 2)
		if s.next <= lo {
			s.next = s.snap(lo + sp.Step)
		}
	}
}

// snap puts a load on the search's grid: from + k·step, k whole, rounded
// down.
func (s *Search) snap(v float64) float64 {
	sp := s.spec
	k := math.Floor((v-sp.From)/sp.Step + 1e-9)
	return sp.From + k*sp.Step
}

// decide is the level of run: its tests, throughput and status.
func (s *Search) decide(run *results.Run) Level {
	sp := s.spec
	smp := SampleOf(run)
	lv := Level{Value: run.Level.Value, N: smp.N(), Failed: failures(smp), Stopped: smp.N() < sp.Requests}
	lv.rates(run, smp, sp.SLO)
	pass, sure := true, false
	for _, b := range sp.SLO {
		t := compare.TestBudget(smp, b, sp.Goodput, sp.Alpha)
		lv.Tests = append(lv.Tests, t)
		pass = pass && t.Status == vocab.OK
		sure = sure || t.Status == vocab.OverBudget
	}
	switch {
	case !lv.Stopped && s.saturated(lv):
		lv.Status, lv.Limit = vocab.OverBudget, vocab.LimitSaturated
	case pass && !lv.Stopped:
		lv.Status = vocab.OK
	case sure:
		lv.Status, lv.Limit = vocab.OverBudget, s.limitOf(smp, lv)
	default:
		lv.Status, lv.Limit = vocab.Inconclusive, s.limitOf(smp, lv)
	}
	return lv
}

// saturated reports whether lv's throughput rose by less than a quarter of
// the load it adds over the level it is judged against (Against; a level
// stopped early is decided on its objectives: its few requests do not
// measure a throughput).
func (s *Search) saturated(lv Level) bool {
	below := Against(s.levels, lv.Value)
	if below == nil || !(below.Throughput > 0) {
		return false
	}
	added := lv.Value/below.Value - 1
	return lv.Throughput < below.Throughput*(1+added/4)
}

// Against is the level that a level of load v, measured after levels, is
// judged saturated against: the highest passing level of levels below v,
// when v is at least 1.5 times its load; nil else (no saturation check).
func Against(levels []Level, v float64) *Level {
	var below *Level
	for i := range levels {
		if l := &levels[i]; l.Passes() && l.Value < v && (below == nil || l.Value > below.Value) {
			below = l
		}
	}
	if below == nil || v < 1.5*below.Value {
		return nil
	}
	return below
}

// limitOf is why a level that does not pass does not: errors when its
// failures alone leave some objective unable to hold at requests_per_level
// (or missed with confidence), the SLO else.
func (s *Search) limitOf(smp *compare.Sample, lv Level) vocab.Limit {
	f := failures(smp)
	for _, t := range lv.Tests {
		// A failure misses every objective: a latency, the error rate and
		// the goodput alike.
		if f > t.MaxMisses(max(s.spec.Requests, lv.N), s.spec.Alpha) {
			return vocab.LimitErrors
		}
	}
	return vocab.LimitSLO
}

// Levels are the levels measured so far, in order.
func (s *Search) Levels() []Level { return s.levels }

// Hopeless reports whether a level measured so far (run, fewer than
// requests_per_level) can stop: some objective can no longer hold with
// requests_per_level requests, and is already missed with confidence,
// one-sided at alpha ÷ the level's looks (every Batch requests), so that
// stopping at any look keeps that confidence.
func (sp Spec) Hopeless(run *results.Run) bool {
	smp := SampleOf(run)
	looks := max(sp.Requests/Batch, 1)
	for _, b := range sp.SLO {
		t := compare.TestBudget(smp, b, sp.Goodput, sp.Alpha/float64(looks))
		if t.Status == vocab.OverBudget && !t.CanHold(sp.Requests, sp.Alpha) {
			return true
		}
	}
	return false
}

// MostRequests is the most requests the search may send, warmup included:
// its most levels, over every capacity its range can hold, times a level's
// requests (MaxRequests, when set, bounds it).
func (sp Spec) MostRequests() int {
	n := sp.MostLevels() * (sp.Requests + sp.Warmup)
	if sp.MaxRequests > 0 {
		n = min(n, sp.MaxRequests)
	}
	return n
}

// MostLevels is the most levels the search measures: the longest of its
// paths when every level up to a capacity passes, for each capacity on
// its grid (and none); beyond 10,000 levels, the bound of bracketing and
// bisection: the doublings to the top, then the halvings of the last
// bracket.
func (sp Spec) MostLevels() int {
	grid := int(math.Floor((sp.To-sp.From)/sp.Step+1e-9)) + 1
	if grid > 10000 {
		up := int(math.Ceil(math.Log2(sp.To/sp.From))) + 1
		return up + int(math.Ceil(math.Log2(float64(grid))))
	}
	most := 0
	for k := -1; k < grid; k++ {
		truth := sp.From + float64(k)*sp.Step
		s := New(Spec{Vary: sp.Vary, From: sp.From, To: sp.To, Step: sp.Step})
		n := 0
		for v, ok := s.Next(); ok; v, ok = s.Next() {
			lv := Level{Value: v, Status: vocab.OverBudget}
			if v <= truth+1e-9*sp.Step {
				lv.Status = vocab.OK
			}
			s.record(lv)
			n++
		}
		most = max(most, n)
	}
	return most
}
