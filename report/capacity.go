package report

// A capacity search as the reports show it: the one-line row every format
// gives it ("holds 6 users at TTFT p95 ≤ 150 ms (6 to 6); base 8 (8 to 8):
// -25%"), what stopped it above the capacity, its goodput, and per level
// the points of the latency–load curve. Package capacity decides the search
// and the comparison; these are their words and figures. A capacity only
// within the SLO on its point estimates says so ("6 users at … on its
// estimates, not shown with confidence (2 to 7)"), and an interval with no
// level shown to hold says what it knows ("at most 7").

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/latgate/latgate/capacity"
	"github.com/latgate/latgate/compare"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/vocab"
)

// Capacity is one (endpoint, scenario)'s capacity search: the head's, the
// base's when there is one, and how they compare.
type Capacity struct {
	Endpoint, Scenario string
	// Status is the comparison's (capacity.Compare): vocab.Regression,
	// vocab.Improvement, vocab.Inconclusive or vocab.OK; vocab.NoBaseline
	// for a head searched alone.
	Status vocab.Status
	// DeltaPct is the change of the capacity in percent (NaN when either
	// side has none).
	DeltaPct float64
	// SameSLO is false when base and head were searched at different SLOs
	// or loads (the comparison is then inconclusive).
	SameSLO bool
	// Tolerance is the comparison's, a fraction.
	Tolerance float64
	Head      CapacitySide
	Base      *CapacitySide // nil without a base
	// Cost is the cost at the SLO compared (cost.go): nil when neither
	// side gives a price.
	Cost *CapacityCost
}

// CapacitySide is one variant's search: what it found, why it ended, and
// its levels.
type CapacitySide struct {
	Result capacity.Result
	// Why says what cut a cut search (the record's stop_reason).
	Why    string
	Levels []LevelPoint // in the order measured
}

// LevelPoint is one level of a search: its decision and the latencies
// the search decided it on (a rate level's from the scheduled send).
type LevelPoint struct {
	capacity.Level
	Step int
	// Load is the level's load on the server: Value times the shards.
	Load float64
	// TTFT and ITL are the p50 and p95 of the level's successful requests.
	TTFT, ITL Stage
	// Server is what the level's scrapes of its metrics_url said (its last
	// measurement's; nil without one): its GPUs (gpu.go).
	Server *results.ServerMetrics
}

// capacityHeading is what a capacity is, as the reports head their
// searches.
const capacityHeading = "Capacity at the SLO (the highest load within every objective: shown to hold with confidence, or within it on its point estimates and not shown to fail)"

// CapacitySideOf is the side of search rec of f that r decided (Replay):
// each of its levels with the latencies of its runs (every measurement of
// it).
func CapacitySideOf(f *results.File, rec results.Search, r capacity.Result) CapacitySide {
	side := CapacitySide{Result: r, Why: rec.StopReason}
	byStep := map[int]*results.Run{}
	for _, run := range f.Levels(rec) {
		byStep[run.Level.Step] = run
	}
	for _, lv := range r.Levels {
		p := LevelPoint{Level: lv, Load: lv.Value * float64(max(r.Shards, 1)), TTFT: stage("TTFT", nil), ITL: stage("ITL", nil)}
		var pooled results.Run
		for _, st := range lv.Steps {
			if run := byStep[st]; run != nil {
				pooled.Level, pooled.Requests = run.Level, append(pooled.Requests, run.Requests...)
				p.Server = cmp.Or(run.ServerMetrics, p.Server)
				if p.Step == 0 {
					p.Step = st
				}
			}
		}
		if pooled.Level != nil {
			s := capacity.SampleOf(&pooled)
			p.TTFT, p.ITL = stage("TTFT", s.Values[vocab.TTFT]), stage("ITL", s.Values[vocab.ITL])
		}
		side.Levels = append(side.Levels, p)
	}
	return side
}

// load is a load of side s's search for people: "8 users", "1 user",
// "2.5 requests/s"; "none" for NaN. v is a level's value (on each shard).
func (s CapacitySide) load(v float64) string {
	if math.IsNaN(v) {
		return "none"
	}
	v *= float64(max(s.Result.Shards, 1))
	switch {
	case s.Result.Spec.Vary == vocab.VaryRate:
		return fmt.Sprintf("%g requests/s", v)
	case v == 1:
		return "1 user"
	}
	return fmt.Sprintf("%g users", v)
}

// num is a level's value as its total load, without the unit.
func (s CapacitySide) num(v float64) string {
	if math.IsNaN(v) {
		return "none"
	}
	return fmt.Sprintf("%g", v*float64(max(s.Result.Shards, 1)))
}

// SLOText says a search's SLO: "TTFT p95 ≤ 800 ms, error rate ≤ 5%".
func SLOText(slo []compare.Budget) string {
	var parts []string
	for _, o := range slo {
		switch {
		case o.Metric == vocab.Goodput:
			parts = append(parts, "goodput ≥ "+cell(o.Value, "%"))
		case o.Metric == vocab.Errors:
			parts = append(parts, "error rate ≤ "+cell(o.Value, "%"))
		default:
			parts = append(parts, fmt.Sprintf("%s %s ≤ %s ms", metricName(o.Metric), o.Stat, trimFloat(o.Value)))
		}
	}
	return strings.Join(parts, ", ")
}

// Holds says what side s's search found: "holds 6 users at TTFT p95 ≤
// 150 ms (6 to 7)", "6 users at TTFT p95 ≤ 800 ms on its estimates, not
// shown with confidence (2 to 7)"; a cut search says so, and is never a
// pass.
func (s CapacitySide) Holds() string {
	r := s.Result
	slo := SLOText(r.Spec.SLO)
	switch {
	case !r.Complete():
		out := "cut before it ended (" + s.cutWhy() + "): never a pass"
		if !math.IsNaN(r.Capacity) {
			out += "; " + s.load(r.Capacity) + " within the SLO so far"
		}
		return out
	case math.IsNaN(r.Capacity):
		return fmt.Sprintf("holds no load at %s: the lowest, %s, %s", slo, s.load(r.Spec.From), s.bottomWords())
	case r.Stop == vocab.AtTop && r.Shown():
		return fmt.Sprintf("holds at least %s at %s, the top of the range", s.load(r.Capacity), slo)
	case r.Stop == vocab.AtTop:
		return fmt.Sprintf("at least %s at %s on its estimates, the top of the range, not shown with confidence (%s)", s.load(r.Capacity), slo, s.shownTo())
	case r.Shown():
		return fmt.Sprintf("holds %s at %s (%s)", s.load(r.Capacity), slo, s.interval())
	}
	return fmt.Sprintf("%s at %s on its estimates, not shown with confidence (%s)", s.load(r.Capacity), slo, s.interval())
}

// interval is the capacity's interval: "6 to 7", from the highest level
// shown to hold to one step below the lowest shown to fail; "at most 7"
// when none is shown to hold.
func (s CapacitySide) interval() string {
	r := s.Result
	if math.IsNaN(r.Lower) {
		return "at most " + s.num(r.Upper)
	}
	return s.num(r.Lower) + " to " + s.num(r.Upper)
}

// shownTo is how far a capacity at the top of the range on its estimates
// is shown to hold: "shown to hold up to 32", "none shown to hold".
func (s CapacitySide) shownTo() string {
	if math.IsNaN(s.Result.Lower) {
		return "none shown to hold"
	}
	return "shown to hold up to " + s.num(s.Result.Lower)
}

// bottomWords says how the lowest level is not within the SLO: "fails
// it", "is over it on its estimates (not shown with confidence)".
func (s CapacitySide) bottomWords() string {
	for _, l := range s.Levels {
		if l.Value == s.Result.Spec.From && l.Status == vocab.Undecided {
			return "is over it on its estimates (not shown with confidence)"
		}
	}
	return "fails it"
}

// cutWhy is what cut a cut search.
func (s CapacitySide) cutWhy() string {
	if s.Why != "" {
		return s.Why
	}
	return strings.ReplaceAll(string(s.Result.Stop), "_", " ")
}

// short is the side's capacity as the base's part of a row: "8 (8 to 8)",
// "6 on its estimates (at most 7)", "at least 32", "none", "cut".
func (s CapacitySide) short() string {
	r := s.Result
	switch {
	case !r.Complete():
		return "cut (" + s.cutWhy() + ")"
	case math.IsNaN(r.Capacity):
		return "none"
	case r.Stop == vocab.AtTop && r.Shown():
		return "at least " + s.num(r.Capacity)
	case r.Stop == vocab.AtTop:
		return "at least " + s.num(r.Capacity) + " on its estimates (" + s.shownTo() + ")"
	case !r.Shown():
		return s.num(r.Capacity) + " on its estimates (" + s.interval() + ")"
	}
	return fmt.Sprintf("%s (%s)", s.num(r.Capacity), s.interval())
}

// limit is the level that ended the search upward: the lowest not within
// the SLO above the capacity (from, when none is within it); nil when
// every level measured is within it.
func (s CapacitySide) limit() *LevelPoint {
	var out *LevelPoint
	for i := range s.Levels {
		l := &s.Levels[i]
		above := math.IsNaN(s.Result.Capacity) || l.Value > s.Result.Capacity
		if !l.Meets && above && (out == nil || l.Value < out.Value) {
			out = l
		}
	}
	return out
}

// Above says why the load above the capacity does not hold: "7 users: TTFT
// p95 172 ms, over the SLO", "16 users: saturated (…)", "the top of the
// range"; a cut search says so.
func (s CapacitySide) Above() string {
	r := s.Result
	l := s.limit()
	switch {
	case !r.Complete() && l == nil:
		return "not searched: the search was cut (" + s.cutWhy() + ")"
	case l == nil:
		return "not searched: " + s.load(r.Spec.To) + " is the top of the range"
	}
	at := s.load(l.Value) + ": "
	switch l.Limit {
	case vocab.LimitSaturated:
		out := at + fmt.Sprintf("saturated, %s requests/s", rate(l.Throughput))
		if l.AgainstLoad > 0 {
			out += fmt.Sprintf(" against %s at %s: throughput rose less than a quarter of the added load", rate(l.AgainstRPS), s.load(l.AgainstLoad))
		}
		if l.Status != vocab.Fails {
			out += " on its estimates, not shown with confidence"
		}
		return out
	case vocab.LimitErrors:
		return at + fmt.Sprintf("%d of %d requests failed", l.Failed, l.N)
	}
	for _, t := range l.Tests {
		if t.Status == vocab.OK || t.Status != vocab.OverBudget && t.Meets() {
			continue
		}
		what := "over the SLO"
		if t.Status != vocab.OverBudget {
			what = "over the SLO on its estimate, not shown with confidence"
		}
		out := at + statText(t) + ", " + what
		if l.Stopped && s.Result.Spec.IsLadder() {
			// A ladder stops no level early: its window closed first.
			out += fmt.Sprintf(", its window closed after %d of %d requests", l.N, s.Result.Spec.Requests)
		} else if l.Stopped {
			out += fmt.Sprintf(", stopped after %d requests", l.N)
		} else if l.Rounds > 1 {
			out += fmt.Sprintf(", %d requests in %d measurements", l.N, l.Rounds)
		}
		return out
	}
	return at + "not within the SLO"
}

// statText is an objective's statistic at a level: "TTFT p95 172 ms",
// "error rate 12%".
func statText(t compare.BudgetTest) string {
	b := t.Budget
	switch b.Metric {
	case vocab.Errors:
		return "error rate " + cell(t.Value, "%")
	case vocab.Goodput:
		return "goodput " + cell(t.Value, "%")
	}
	return fmt.Sprintf("%s %s %s ms", metricName(b.Metric), b.Stat, Millis(t.Value))
}

// rate is a throughput for people, to three significant digits.
func rate(v float64) string {
	if math.IsNaN(v) {
		return "–"
	}
	return fmt.Sprintf("%.3g", v)
}

// Goodput says the requests and output tokens per second within the SLO
// at the capacity: "8.95 requests/s, 429 output tokens/s"; "–" for none.
func (s CapacitySide) Goodput() string {
	switch {
	case !s.Result.Complete():
		return "– (cut)"
	case math.IsNaN(s.Result.GoodRPS):
		return "–"
	}
	return fmt.Sprintf("%s requests/s, %s output tokens/s", rate(s.Result.GoodRPS), rate(s.Result.GoodTPS))
}

// Cost says what the search sent: "6 levels, 331 requests in 1m27s".
func (s CapacitySide) Cost() string {
	r := s.Result
	return fmt.Sprintf("%s, %d requests in %s", plural(len(r.Levels), "level", "levels"), r.Requests, time.Duration(r.Ms*1e6).Round(time.Second))
}

// SearchText is a search's one line for the progress log: what it found,
// its goodput and what it sent.
func SearchText(r capacity.Result, why string) string {
	s := CapacitySide{Result: r, Why: why}
	for _, lv := range r.Levels {
		s.Levels = append(s.Levels, LevelPoint{Level: lv, Load: lv.Value * float64(max(r.Shards, 1))})
	}
	out := s.Holds()
	if g := s.Goodput(); !strings.HasPrefix(g, "–") {
		out += "; goodput " + g
	}
	if cl := (Capacity{Head: s, Cost: CostOf(nil, s, 0, true)}).CostLine(); cl != "" {
		out += "; " + cl
	}
	return out + "; above: " + s.Above() + "; " + s.Cost()
}

// Line is the capacity's one-line row: the head's capacity, the base's
// and the change: "holds 6 users at TTFT p95 ≤ 150 ms (6 to 6); base 8 (8
// to 8): -25%".
func (c Capacity) Line() string {
	out := c.Head.Holds()
	if c.Base == nil {
		return out
	}
	out += "; base " + c.Base.short()
	if !math.IsNaN(c.DeltaPct) && !c.Cut() {
		out += ": " + signedPct(c.DeltaPct)
	}
	return out
}

// Verdict says the comparison in words: "capacity regression: lower beyond
// 10% with confidence".
func (c Capacity) Verdict() string {
	tol := trimFloat(100*c.Tolerance) + "%"
	switch c.Status {
	case vocab.Regression:
		return "capacity regression: lower beyond " + tol + " with confidence"
	case vocab.Improvement:
		return "capacity improvement: higher beyond " + tol + " with confidence"
	case vocab.NoBaseline:
		if !c.Head.Result.Complete() {
			return "cut: never a pass"
		}
		return "no base to compare with"
	case vocab.Inconclusive:
		switch {
		case !c.SameSLO:
			return "inconclusive: base and head were searched at different SLOs"
		case c.Cut():
			return "inconclusive: a search was cut, never a pass"
		}
		return "inconclusive: a change beyond " + tol + " without confidence"
	}
	if c.shownWithin() {
		return "no change beyond " + tol + " with confidence"
	}
	return "no change shown: the estimates within " + tol + " of each other"
}

// shownWithin reports whether the two capacities are shown within the
// tolerance of each other: what each side is not shown to fail (Upper)
// is within it of what the other is shown to hold (Lower). Without that,
// an ok comparison only failed to show a change.
func (c Capacity) shownWithin() bool {
	if c.Base == nil {
		return false
	}
	b, h := c.Base.Result, c.Head.Result
	bs, hs, keep := float64(b.Shards), float64(h.Shards), 1-c.Tolerance
	return keep*h.Upper*hs <= b.Lower*bs && keep*b.Upper*bs <= h.Lower*hs
}

// Badge is the capacity's status as a badge: "❌ capacity regression".
func (c Capacity) Badge() string {
	switch {
	case c.Status == vocab.Regression:
		return "❌ capacity regression"
	case c.Cut():
		return "⚠️ cut: never a pass"
	case c.Status == vocab.Improvement:
		return "🟢 capacity up"
	case c.Status == vocab.Inconclusive:
		return "⚠️ inconclusive"
	case c.Status == vocab.NoBaseline:
		return "🆕 no baseline"
	}
	return "✅ ok"
}

// Cut reports whether a search of c was cut: never a pass.
func (c Capacity) Cut() bool {
	return !c.Head.Result.Complete() || c.Base != nil && !c.Base.Result.Complete()
}

// Name is the capacity's (endpoint, scenario), "chat-capacity @ local".
func (c Capacity) Name() string { return c.Scenario + " @ " + c.Endpoint }

// capacitySeverity orders capacity searches from worst to best: a
// regression, a cut search, inconclusive, an improvement, no baseline, ok.
func (c Capacity) severity() int {
	switch {
	case c.Status == vocab.Regression || c.CostRegressed():
		return 5
	case c.Cut():
		return 4
	case c.Status == vocab.Inconclusive:
		return 3
	case c.Status == vocab.Improvement:
		return 2
	case c.Status == vocab.NoBaseline:
		return 1
	}
	return 0
}

// headlineWords is the comparison as the headline ends a row: ", a
// capacity regression".
func (c Capacity) headlineWords() string {
	switch {
	case c.Status == vocab.Regression:
		return ", a capacity regression"
	case c.Cut():
		return "" // the row says it: never a pass
	case c.Status == vocab.Improvement:
		return ", a capacity improvement"
	case c.Status == vocab.Inconclusive:
		return ", inconclusive"
	case c.Status == vocab.OK:
		if c.shownWithin() {
			return ", no change beyond " + trimFloat(100*c.Tolerance) + "% with confidence"
		}
		return ", no change shown"
	}
	return ""
}

// capacityHeadline is the headline's part of the capacity searches: the
// row of the one search, or how many regressed or were cut and the worst
// one's row; "" without searches.
func capacityHeadline(cs []Capacity, esc func(string) string) string {
	if len(cs) == 0 {
		return ""
	}
	worst := cs[0]
	reg, cut, dear := 0, 0, 0
	for _, c := range cs {
		if c.severity() > worst.severity() {
			worst = c
		}
		if c.CostRegressed() {
			dear++
		}
		if c.Status == vocab.Regression {
			reg++
		} else if c.Cut() {
			cut++
		}
	}
	e := worst.escaped(esc)
	row := e.Name() + " " + e.Line() + worst.headlineWords() + worst.costHeadline()
	if len(cs) == 1 {
		return row
	}
	var parts []string
	if reg > 0 {
		parts = append(parts, plural(reg, "capacity regression", "capacity regressions"))
	}
	if dear > 0 {
		parts = append(parts, plural(dear, "cost regression", "cost regressions"))
	}
	if cut > 0 {
		parts = append(parts, plural(cut, "search cut", "searches cut"))
	}
	if len(parts) == 0 {
		parts = append(parts, "no capacity regression")
	}
	return strings.Join(parts, ", ") + " in " + plural(len(cs), "capacity search", "capacity searches") + "; worst: " + row
}

// LevelWords is a level's decision in words: "holds", "fails: over the
// SLO", "fails: errors", "fails: saturated", "undecided, within on its
// estimates", "undecided, over on its estimates"; "(stopped early)" after
// a level stopped once it could not hold, "(measured 2 times)" after one
// measured again.
func (l LevelPoint) LevelWords() string {
	w := "holds"
	switch {
	case l.Holds():
	case l.Status == vocab.Fails && l.Limit == vocab.LimitSaturated:
		w = "fails: saturated"
	case l.Status == vocab.Fails && l.Limit == vocab.LimitErrors:
		w = "fails: errors"
	case l.Status == vocab.Fails:
		w = "fails: over the SLO"
	case l.Meets:
		w = "undecided, within on its estimates"
	default:
		w = "undecided, over on its estimates"
	}
	if l.Stopped {
		w += " (stopped early)"
	}
	if l.Rounds > 1 {
		w += fmt.Sprintf(" (measured %d times)", l.Rounds)
	}
	return w
}

// levelRow is one level's cells for a table: side, load, decision,
// requests (failed), TTFT and inter-token p50 and p95 (each pair in one
// cell, "178 / 221", its spaces unbreakable: the comment's column holds
// a priced, GPU-scraped level table only so), throughput and goodput in
// requests/s.
func levelRow(side string, s CapacitySide, l LevelPoint) []string {
	n := fmt.Sprint(l.N)
	if l.Failed > 0 {
		n += fmt.Sprintf(" (%d failed)", l.Failed)
	}
	return []string{side, s.num(l.Value), l.LevelWords(), n, cellPair(Millis(l.TTFT.P50), Millis(l.TTFT.P95)), cellPair(Millis(l.ITL.P50), Millis(l.ITL.P95)),
		rate(l.Throughput), rate(l.GoodRPS)}
}

// levelHeads are the headings of levelRow's cells.
var levelHeads = []string{"side", "load", "level", "requests", "TTFT p50 / p95", "ITL p50 / p95", "req/s", "goodput/s"}

// cellPair is a p50 and a p95 in one cell: "178 / 221", never broken.
func cellPair(p50, p95 string) string { return p50 + "\u00a0/\u00a0" + p95 }

// levelRows are the levels of both sides by load, the base's first at
// each load.
func (c Capacity) levelRows() [][]string {
	type at struct {
		load float64
		base bool
		row  []string
	}
	var all []at
	if c.Base != nil {
		for _, l := range c.Base.Levels {
			all = append(all, at{l.Load, true, c.withGPU(c.withCost(levelRow("base", *c.Base, l), *c.Base, l), l)})
		}
	}
	side := "head"
	if c.Base == nil {
		side = ""
	}
	for _, l := range c.Head.Levels {
		all = append(all, at{l.Load, false, c.withGPU(c.withCost(levelRow(side, c.Head, l), c.Head, l), l)})
	}
	slices.SortStableFunc(all, func(a, b at) int {
		if a.load != b.load {
			return cmp.Compare(a.load, b.load)
		}
		return cmp.Compare(b2i(!a.base), b2i(!b.base))
	})
	out := make([][]string, len(all))
	for i, a := range all {
		out[i] = a.row
	}
	return out
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// details are a capacity's lines under its row: its verdict, why the load
// above does not hold, the goodput and what the searches sent, each
// side's ("base: …") when there are two.
func (c Capacity) details() []string {
	both := func(f func(CapacitySide) string) string {
		if c.Base == nil {
			return f(c.Head)
		}
		return f(c.Head) + "; base " + f(*c.Base)
	}
	out := append([]string{c.Verdict(), "above: " + both(CapacitySide.Above), "goodput within the SLO: " + both(CapacitySide.Goodput),
		"sent: " + both(CapacitySide.Cost)}, c.costDetail()...)
	if g := c.gpuDetails(); g != "" {
		out = append(out, g)
	}
	if sd := c.specDetails(); sd != "" {
		out = append(out, sd)
	}
	return out
}

// legend says what a capacity's levels table shows.
func (c Capacity) legend() string {
	from := ""
	if c.Head.Result.Spec.Vary == vocab.VaryRate {
		from = ", timed from each request's scheduled send (a request sent late waited that long)"
	}
	per := "over the level's span"
	if v := c.Head.Result.Spec.Version; v != 1 && v != 2 { // the design since version 3
		per = "with every user waiting for one (users ÷ the mean time of a request past the first wave)"
		if c.Head.Result.Spec.Vary == vocab.VaryRate {
			per = "at the pace of their answers (from the first one's end to the last one's)"
		}
	}
	return "Latencies in ms of each level's successful requests" + from +
		"; req/s: the successful requests per second " + per + ", goodput/s those within the SLO."
}

// escaped is c with what came from a results file (the names, what cut a
// search) escaped by esc, for a format whose own words need none.
func (c Capacity) escaped(esc func(string) string) Capacity {
	c.Endpoint, c.Scenario, c.Head.Why = esc(c.Endpoint), esc(c.Scenario), esc(c.Head.Why)
	if c.Base != nil {
		b := *c.Base
		b.Why = esc(b.Why)
		c.Base = &b
	}
	return c
}

// reason is the verdict's reason without its status: "lower beyond 10%
// with confidence".
func (c Capacity) reason() string {
	v := c.Verdict()
	if _, after, ok := strings.Cut(v, ": "); ok {
		return after
	}
	return v
}
