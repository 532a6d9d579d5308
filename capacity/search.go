// Package capacity searches the capacity of a scenario at its SLO: the
// highest load (users at once, or requests per second) at which every
// objective of the SLO holds. It is pure: the caller measures each level
// the search asks for (Next) and hands its run back (Add); the search
// reads no clock and does no I/O, so it is decided again from a results
// file's levels exactly as it was while measuring (Replay), and compared
// between two variants (Compare).
//
// A level holds when every objective is shown to hold with confidence (the
// budget check of package compare, one-sided at alpha, on the level's
// requests: compare.TestBudget; a failed request misses every latency
// objective) and its throughput is shown still rising over the level below
// it; it fails when an objective is shown to be missed with confidence, or
// the server is shown saturated; it is undecided else. The search takes a
// level as within the SLO when it holds, or is undecided with every
// objective's point estimate within its budget and its throughput rising
// on its figures (Level.Meets). It brackets (from, 2·from, 4·from, … up to
// to) until a level is not within the SLO, then bisects between the
// highest level within it and the lowest other one until they are one step
// apart. It assumes that a level beyond one that is not within the SLO is
// not either. The capacity's level is then judged against the level a
// step below it, measured when it was not (Spec.below). Once bracketed, an
// undecided level at either end of the bracket is measured again, while
// the caps allow it without ever cutting the search: as many requests
// again, then twice that (vocab.LevelLooks), the later looks at the alphas
// that keep each level's confidence over its looks (compare.LookAlphas). A
// level measured again, or one measured below it, that changes its sides
// reopens the bisection.
//
// The capacity is the highest level within the SLO below every level that
// is not; its interval runs from the highest level shown to hold to one
// step below the lowest shown to fail (Result).
//
// Saturation: a level is judged against the nearest level below it within
// the SLO, again whenever a level is measured between them (judge). It is
// saturated when its throughput is shown to have risen by less than a
// quarter of the load it adds — more load only queues — and shown still
// rising when by more (judgeAgainst: Little's law for users at once, past
// each measurement's first wave). A level's first measurement stops early,
// before requests_per_level, once it can no longer hold and already fails
// with confidence (Hopeless): a level whose median is over the budget
// stops after about ten requests. Caps on the whole search's requests and
// time cut it: a cut search says so and is never a pass.
//
// Files written before levels could be undecided (results.Search's version
// 1) are decided by their own design (Spec.Version): a level passes only
// when it holds, is never measured again, and the capacity is the highest
// level that holds. Files of version 2 are decided by theirs: saturation
// on a level's first measurement, on its figures over its spans, against a
// level at least 1.5 times below (Against), and no level below the
// capacity's.
package capacity

import (
	"math"
	"slices"

	"github.com/latgate/latgate/compare"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/vocab"
)

// Design is the version of the search's design that results files record
// (results.Search's version): 3, saturation shown with confidence against
// the nearest level below within the SLO, the capacity's level judged
// against the level a step below it (2: levels that hold, fail or are
// undecided, saturation on its figures against a level at least 1.5 times
// below; 1: levels that pass or not).
const Design = 3

// Spec is a capacity search.
type Spec struct {
	Vary           vocab.Vary
	From, To, Step float64
	// Requests are the measured requests of a level's first measurement;
	// Warmup the requests each measurement sends first (they count toward
	// MaxRequests).
	Requests, Warmup int
	// SLO are the objectives (milliseconds for latencies; errors.rate a
	// ceiling, goodput.rate a floor, as fractions); Goodput the
	// per-request SLO a goodput.rate objective counts.
	SLO     []compare.Budget
	Goodput []compare.SLO
	Alpha   float64
	// PerHour is the price of the endpoint's hardware, USD an hour (0:
	// none given; cost.go).
	PerHour float64
	// MaxRequests caps the requests the whole search sends, warmup
	// included, and MaxDurationMs its time (0: no cap). A level that
	// would send more than the requests left is not started (the search
	// is cut); a level is measured again only when what is left still
	// holds every level the search may yet need.
	MaxRequests   int
	MaxDurationMs float64
	// Levels, when given, are a ladder (ladder.go): each of them measured
	// once, in ascending order, instead of a search from From to To.
	Levels []float64
	// Version is the design the search follows: Design (0 means it), or
	// 1 for the searches of files written before it.
	Version int
}

// first reports whether the spec follows the first design (version 1).
func (sp Spec) first() bool { return sp.Version == 1 }

// older reports whether the spec follows a design before version 3, whose
// saturation is decided on a level's first measurement, on its figures,
// against a level at least 1.5 times below it, and whose capacity's level
// is not judged against the level below it.
func (sp Spec) older() bool { return sp.Version == 1 || sp.Version == 2 }

// looks are the measured requests at which a level is decided.
func (sp Spec) looks() []int {
	if sp.first() || sp.IsLadder() {
		return []int{sp.Requests}
	}
	return vocab.LevelLooks(sp.Requests)
}

// Batch is how often, in measured requests, a level's first measurement
// is looked at to stop it early (Hopeless).
const Batch = 5

// Search is one capacity search in progress.
type Search struct {
	spec   Spec
	looks  []int
	alphas [][2][]float64 // per objective: the hold and fail alpha of each look
	levels []Level        // one per load, in the order first measured
	steps  []Step
	sent   int
	ms     float64
	stop   vocab.Stop
}

// Step is one measurement of a search: the level's load, which of the
// level's measurements it was (from 1), and the level's status after it.
type Step struct {
	Value  float64
	Round  int
	Status vocab.LevelStatus
}

// New starts a search at spec.From.
func New(spec Spec) *Search {
	s := &Search{spec: spec, looks: spec.looks()}
	for _, b := range spec.SLO {
		h, f := compare.LookAlphas(b.MissShare(), s.looks, spec.Alpha)
		s.alphas = append(s.alphas, [2][]float64{h, f})
	}
	return s
}

// Next is the load of the level to measure next (a new level, or one
// measured again); false when the search is done (found, at an end of the
// range, or cut by a cap).
func (s *Search) Next() (float64, bool) {
	if s.stop != "" {
		return 0, false
	}
	sp := s.spec
	b := s.bracket()
	if b.stop == "" {
		if sp.MaxRequests > 0 && s.sent+sp.Requests+sp.Warmup > sp.MaxRequests || sp.MaxDurationMs > 0 && s.ms >= sp.MaxDurationMs {
			s.stop = vocab.Capped
			return 0, false
		}
		return b.next, true
	}
	for _, i := range s.again(b) {
		if s.affords(i) {
			return s.levels[i].Value, true
		}
	}
	s.stop = b.stop
	return 0, false
}

// Round is the measurement of load v that Next asked for: which of its
// level's (from 1), and its measured requests.
func (s *Search) Round(v float64) (round, requests int) {
	i := s.index(v)
	if i < 0 {
		return 1, s.spec.Requests
	}
	k := s.levels[i].Rounds
	return k + 1, s.looks[min(k, len(s.looks)-1)] - s.looks[k-1]
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
// the requests it sent (warmup included) and its time: a level measured
// before is decided again on all its requests.
func (s *Search) Add(run *results.Run, sent int, ms float64) Level {
	i := s.index(run.Level.Value)
	if i < 0 {
		s.levels = append(s.levels, Level{Value: run.Level.Value})
		i = len(s.levels) - 1
	}
	l := &s.levels[i]
	l.add(run, ms, s.spec.SLO, !s.spec.older())
	s.sent += sent
	s.ms += ms
	l.Steps = append(slices.Clip(l.Steps), len(s.steps)+1)
	s.decide(l)
	s.steps = append(s.steps, Step{Value: l.Value, Round: l.Rounds, Status: l.Status})
	return *l
}

// index is the level of load v measured so far; -1 for none.
func (s *Search) index(v float64) int {
	for i, l := range s.levels {
		if same(l.Value, v) {
			return i
		}
	}
	return -1
}

func same(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

// Levels are the levels measured so far, in the order first measured.
func (s *Search) Levels() []Level { return s.levels }

// Steps are the measurements so far, in order.
func (s *Search) Steps() []Step { return s.steps }

// point is a measured level as the bracket sees it.
type point struct {
	value float64
	meets bool
}

func (s *Search) points() []point {
	pts := make([]point, len(s.levels))
	for i, l := range s.levels {
		pts[i] = point{l.Value, l.Meets}
	}
	return pts
}

// bracket is where the search stands: lo the capacity's level (the
// highest within the SLO below every level that is not) and hi the lowest
// level not within it (-1: none), and the next level to measure, or why
// the search ends.
type bracket struct {
	lo, hi int
	next   float64
	stop   vocab.Stop
	// gap is how far below the capacity's level lies the level it is
	// judged against, when next is the level measured below it (below).
	gap float64
}

func (s *Search) bracket() bracket { return s.spec.bracket(s.points()) }

// bracket is the search's bracket of the levels pts.
func (sp Spec) bracket(pts []point) bracket {
	b := bracket{lo: -1, hi: -1}
	for i, p := range pts {
		if !p.meets && (b.hi < 0 || p.value < pts[b.hi].value) {
			b.hi = i
		}
	}
	for i, p := range pts {
		if p.meets && (b.hi < 0 || p.value < pts[b.hi].value) && (b.lo < 0 || p.value > pts[b.lo].value) {
			b.lo = i
		}
	}
	if sp.IsLadder() {
		return sp.ladderBracket(pts, b)
	}
	switch {
	case len(pts) == 0:
		b.next = sp.From
	case b.hi < 0 && pts[b.lo].value >= sp.To:
		b.stop = vocab.AtTop
	case b.hi < 0:
		lo := pts[b.lo].value
		b.next = math.Min(sp.To, sp.snap(2*lo))
		if b.next <= lo {
			b.next = math.Min(sp.To, lo+sp.Step)
		}
	case b.lo < 0:
		b.stop = vocab.AtBottom // the lowest level is not within the SLO
	case pts[b.hi].value-pts[b.lo].value <= sp.Step*(1+1e-9):
		b.stop = vocab.Found
	default:
		lo := pts[b.lo].value
		b.next = sp.snap((lo + pts[b.hi].value) / 2)
		if b.next <= lo {
			b.next = sp.snap(lo + sp.Step)
		}
	}
	if b.stop == vocab.Found || b.stop == vocab.AtTop {
		if next, gap, ok := sp.below(pts, b); ok {
			b.next, b.stop, b.gap = next, "", gap
		}
	}
	return b
}

// below is the level to measure under the capacity's level (b.lo) before
// the search ends, so that its saturation is judged against the level a
// step below it (design 3): that level, when the level it is judged
// against lies further below; or, when the level above the capacity's was
// measured before it (the capacity's level came in as such a level, the
// one above it saturated against it), the level halfway down to the one
// it is judged against, so that a capacity far below where the search
// first found it takes a bisection, not a step at a time. False when the
// capacity's level is the range's bottom or is judged against the level a
// step below it.
func (sp Spec) below(pts []point, b bracket) (next, gap float64, ok bool) {
	if sp.older() {
		return 0, 0, false
	}
	lo := pts[b.lo].value
	if lo-sp.Step < sp.From-1e-9*sp.Step {
		return 0, 0, false
	}
	ref := sp.From - sp.Step // none within the SLO below it
	for _, p := range pts {
		if p.meets && p.value < lo && p.value > ref {
			ref = p.value
		}
	}
	if lo-ref <= sp.Step*(1+1e-9) {
		return 0, 0, false
	}
	next = lo - sp.Step
	if b.hi >= 0 && b.hi < b.lo && ref >= sp.From {
		next = math.Max(sp.snap((ref+lo)/2), ref+sp.Step)
	}
	return sp.snap(next), lo - ref, true
}

// knee is the most levels that judging a capacity's level against the
// level a step below it may add to the one measured below it, when the
// level it was judged against lies gap below it: should the capacity be
// saturated against the level below it, a bisection between the level
// judged against and that one, and the level below the one it ends at.
func (sp Spec) knee(gap float64) int {
	k := math.Round(gap/sp.Step) - 1 // the levels between, but the one measured below
	if k < 2 {
		return 0
	}
	return int(math.Ceil(math.Log2(k)-1e-9)) + 1
}

// snap puts a load on the search's grid: from + k·step, k whole, rounded
// down.
func (sp Spec) snap(v float64) float64 {
	k := math.Floor((v-sp.From)/sp.Step + 1e-9)
	return sp.From + k*sp.Step
}

// again are the levels the search may measure again once bracketed: the
// capacity's level and the lowest one above it, each when undecided, its
// measurements complete and below the most a level measures.
func (s *Search) again(b bracket) []int {
	var out []int
	for _, i := range []int{b.lo, b.hi} {
		if i < 0 || s.spec.first() {
			continue
		}
		l := s.levels[i]
		if k := l.Rounds; l.Status == vocab.Undecided && !l.Stopped && k < len(s.looks) && l.N == s.looks[k-1] {
			out = append(out, i)
		}
	}
	return out
}

// affords reports whether level i can be measured again within the caps
// and still leave what every level the search may need after it takes:
// the most levels its bracket could then need, were the level to change
// sides (each at the longest time a level took so far).
func (s *Search) affords(i int) bool {
	sp := s.spec
	_, n := s.Round(s.levels[i].Value)
	pts := s.points()
	pts[i].meets = !pts[i].meets
	more := sp.mostFrom(pts)
	if sp.MaxRequests > 0 && s.sent+n+sp.Warmup+more*(sp.Requests+sp.Warmup) > sp.MaxRequests {
		return false
	}
	if sp.MaxDurationMs > 0 {
		l, longest := s.levels[i], 0.0
		for _, o := range s.levels {
			longest = math.Max(longest, o.ms)
		}
		if s.ms+l.ms/float64(max(l.N, 1))*float64(n)+float64(more)*longest > sp.MaxDurationMs {
			return false
		}
	}
	return true
}

// decide is the level's status from its requests so far: its tests at the
// alphas of the last look it reached, whether it meets the SLO and why it
// does not hold; then every level's saturation (judge).
func (s *Search) decide(l *Level) {
	sp := s.spec
	smp := SampleOf(&l.pooled)
	l.N, l.Failed = smp.N(), failures(smp)
	if l.Rounds == 1 {
		l.Stopped = l.N < sp.Requests
		if sp.older() {
			l.saturated = !l.Stopped && s.saturated(l)
		}
	}
	k := -1 // the last look reached
	for j, n := range s.looks {
		if l.N >= n {
			k = j
		}
	}
	l.Tests = make([]compare.BudgetTest, 0, len(sp.SLO))
	holds, fails, meets := k >= 0, false, true
	for j, b := range sp.SLO {
		t := compare.TestBudget(smp, b, sp.Goodput, sp.Alpha)
		hold, fail := 0.0, s.alphas[j][1][0]
		if k >= 0 {
			hold, fail = s.alphas[j][0][k], s.alphas[j][1][k]
		}
		t.Status = t.Decide(hold, fail)
		l.Tests = append(l.Tests, t)
		holds = holds && t.Status == vocab.OK
		fails = fails || t.Status == vocab.OverBudget
		meets = meets && t.Meets()
	}
	l.slo = vocab.Undecided
	switch {
	case holds:
		l.slo = vocab.Holds
	case fails:
		l.slo = vocab.Fails
	}
	l.sloMeets, l.sloLimit = meets, ""
	if !holds {
		l.sloLimit = s.limitOf(smp, l)
	}
	s.judge()
}

// settle is level l's status from its SLO and its saturation: it fails
// when shown saturated; a level judged against one below it holds only
// when its throughput is shown still rising, and is within the SLO on its
// estimates only when its figures say so.
func (s *Search) settle(l *Level) {
	l.Status, l.Limit = l.slo, l.sloLimit
	meets := l.sloMeets
	switch {
	case l.saturated:
		l.Status, l.Limit, meets = vocab.Fails, vocab.LimitSaturated, false
	case l.judged && !l.rising && l.Status != vocab.Fails:
		l.Status, meets = vocab.Undecided, meets && !l.slowing
		if l.slowing || l.Limit == "" {
			l.Limit = vocab.LimitSaturated
		}
	}
	l.Meets = l.Holds() || l.Status == vocab.Undecided && meets && !s.spec.first()
}

// saturated reports, in the designs before version 3, whether lv's
// throughput rose by less than a quarter of the load it adds over the
// level it is judged against (Against; a level stopped early is decided
// on its objectives: its few requests do not measure a throughput), on
// its figures alone.
func (s *Search) saturated(lv *Level) bool {
	below := Against(s.levels, lv.Value)
	if below == nil || !(below.Throughput > 0) {
		return false
	}
	lv.AgainstLoad, lv.AgainstRPS = below.Value, below.Throughput
	added := lv.Value/below.Value - 1
	return lv.Throughput < below.Throughput*(1+added/4)
}

// Against is the level that a level of load v, measured after levels, is
// judged saturated against in the designs before version 3: the highest
// level of levels below v within the SLO (Meets), when v is at least 1.5
// times its load; nil else (no saturation check).
func Against(levels []Level, v float64) *Level {
	var below *Level
	for i := range levels {
		if l := &levels[i]; l.Meets && l.Value < v && (below == nil || l.Value > below.Value) {
			below = l
		}
	}
	if below == nil || v < 1.5*below.Value {
		return nil
	}
	return below
}

// limitOf is why a level that does not hold does not: errors when its
// failures alone leave some objective unable to hold at the most requests
// a level measures (or missed with confidence), the SLO else.
func (s *Search) limitOf(smp *compare.Sample, lv *Level) vocab.Limit {
	f := failures(smp)
	last := len(s.looks) - 1
	for j, t := range lv.Tests {
		// A failure misses every objective: a latency, the error rate and
		// the goodput alike.
		if f > t.MaxMisses(max(s.looks[last], lv.N), s.alphas[j][0][last]) {
			return vocab.LimitErrors
		}
	}
	return vocab.LimitSLO
}

// Hopeless reports whether a level's first measurement so far (run, fewer
// than requests_per_level) can stop: some objective can no longer hold
// with requests_per_level requests, and is already missed with
// confidence, one-sided at alpha ÷ the measurement's looks (every Batch
// requests), so that stopping at any look keeps that confidence.
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
// without MaxRequests, its most levels (over every capacity its range can
// hold) measured once each, the cap it is given by default, so that a
// level is measured again only with what the search's path leaves of it;
// with MaxRequests, that cap, unless every level measured to the most
// would send less.
func (sp Spec) MostRequests() int {
	n := sp.MostLevels() * (sp.Requests + sp.Warmup)
	if sp.MaxRequests > 0 {
		most := n
		if !sp.first() && !sp.IsLadder() {
			most = sp.MostLevels() * (vocab.MostPerLevel(sp.Requests) + len(sp.looks())*sp.Warmup)
		}
		n = min(most, sp.MaxRequests)
	}
	return n
}

// MostLevels is the most levels the search measures: the longest of its
// paths when every level up to a capacity is within the SLO, for each
// capacity on its grid (and none).
func (sp Spec) MostLevels() int { return sp.mostFrom(nil) }

// mostFrom is the most levels the search measures after the levels pts:
// the longest of its paths for each capacity on its grid (and none), with
// the level measured below the capacity's and the bisection that judging
// the capacity's saturation may take (knee); beyond 10,000 levels, the
// bound of bracketing and bisection: the doublings to the top, then the
// halvings of the last bracket (twice, and the level below).
func (sp Spec) mostFrom(pts []point) int {
	if sp.IsLadder() {
		return max(len(sp.Levels)-len(pts), 0)
	}
	grid := int(math.Floor((sp.To-sp.From)/sp.Step+1e-9)) + 1
	if grid > 10000 {
		up := int(math.Ceil(math.Log2(sp.To/sp.From))) + 1
		halvings := int(math.Ceil(math.Log2(float64(grid))))
		if sp.older() {
			return up + halvings
		}
		return up + 2*halvings + 1 // and the level below the capacity, and the knee's bisection

	}
	most := 0
	path := make([]point, 0, len(pts)+64)
	for k := -1; k < grid; k++ {
		truth := sp.From + float64(k)*sp.Step
		path = append(path[:0], pts...)
		n, gap := 0, 0.0
		for b := sp.bracket(path); b.stop == ""; b = sp.bracket(path) {
			if gap == 0 {
				gap = b.gap
			}
			path = append(path, point{b.next, b.next <= truth+1e-9*sp.Step})
			n++
		}
		most = max(most, n+sp.knee(gap))
	}
	return most
}
