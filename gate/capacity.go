package gate

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/latgate/latgate/capacity"
	"github.com/latgate/latgate/compare"
	"github.com/latgate/latgate/probe"
	"github.com/latgate/latgate/report"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/suite"
	"github.com/latgate/latgate/vocab"
)

// Capacity searches (a scenario's capacity:) run after the suite's other
// scenarios, through the same measurement path: each level is one group of
// the runner (its pure pacer, its worker pool, its one aggregator), sent
// at the level's load and recorded as a run labelled with it; the search
// (package capacity) decides each level as it ends and names the next.
// In an A/B run, the base's and the head's searches take turns, one level
// each, on the same machine.

// levelPlan labels a planned group as a level of a capacity search: the
// variant it measures ("" outside an A/B run) and its load.
type levelPlan struct {
	side  vocab.Side
	label results.Level
}

// searchPlan is one (endpoint, scenario) with a capacity, and the base
// variant's in an A/B run (when the base suite searches it too).
type searchPlan struct {
	head planned
	base *planned
}

// sideSearch is one variant's search in progress.
type sideSearch struct {
	pl      planned
	side    vocab.Side // the variant in the file ("" outside an A/B run)
	spec    capacity.Spec
	s       *capacity.Search
	req     probe.Request
	prepare func(int, *probe.Request)
	why     string // why a cut search was cut, in the suite's keys
}

// name is group g's "scenario @ endpoint" (progress lines).
func (m *measurement) name(g int) string {
	pl := m.plan[g]
	return pl.scenario.Name + " @ " + pl.endpoint.Name
}

// planSearch adds the capacity search of (s, ep), with its base variant's,
// counting the most requests each may send against limits.max_requests.
func (m *measurement) planSearch(s suite.Scenario, ep suite.Endpoint, baseCfg *suite.Config) error {
	plan := searchPlan{head: planned{scenario: s, endpoint: ep}, base: m.baseVariant(s, ep, baseCfg)}
	for _, pl := range []*planned{&plan.head, plan.base} {
		if pl == nil {
			continue
		}
		if _, _, err := groupOf(pl.scenario, pl.endpoint); err != nil {
			return err
		}
		sp := specOf(pl.scenario, pl.endpoint, compare.Config{})
		m.total += sp.MostRequests()
		m.measuredPlanned += sp.MostRequests() * sp.Requests / (sp.Requests + sp.Warmup)
	}
	m.searches = append(m.searches, plan)
	return nil
}

// baseVariant is the base suite's search of (s, ep), nil without one.
func (m *measurement) baseVariant(s suite.Scenario, ep suite.Endpoint, baseCfg *suite.Config) *planned {
	if baseCfg == nil {
		return nil
	}
	b := findVariant(baseCfg, s.Name, ep.Name)
	if b == nil || b.scenario.Capacity == nil {
		return nil
	}
	return b
}

// specOf is the search of a scenario's capacity on endpoint ep at the
// thresholds' alpha and goodput (milliseconds from the suite's seconds),
// at the price of ep's hardware.
func specOf(s suite.Scenario, ep suite.Endpoint, th compare.Config) capacity.Spec {
	c := s.Capacity
	sp := capacity.Spec{Vary: c.Vary, From: c.From, To: c.To, Step: c.Step, Requests: c.RequestsPerLevel, Warmup: s.Warmup,
		Alpha: th.Alpha, Goodput: th.Goodput, MaxRequests: c.MaxRequests, MaxDurationMs: float64(c.MaxDuration) / 1e6, Levels: c.Levels, PerHour: ep.PerHour}
	for _, b := range c.SLO {
		v := b.Value
		if !b.Metric.IsRate() {
			v *= 1000
		}
		sp.SLO = append(sp.SLO, compare.Budget{Metric: b.Metric, Stat: b.Stat, Value: v})
	}
	if sp.MaxRequests == 0 {
		sp.MaxRequests = sp.MostRequests()
	}
	return sp
}

// searchAll runs every capacity search after the suite's other groups;
// res is the run so far, and the whole run's result is returned.
func (m *measurement) searchAll(ctx context.Context, r *probe.Runner, res probe.Result, sk *sink, th compare.Config, cfg, baseCfg *suite.Config, log io.Writer) probe.Result {
	for _, sp := range m.searches {
		var sides []*sideSearch
		if sp.base != nil {
			sides = append(sides, m.sideOf(*sp.base, vocab.Base, th))
		}
		side := vocab.Side("")
		if baseCfg != nil {
			side = vocab.Head
		}
		sides = append(sides, m.sideOf(sp.head, side, th))
		res = m.runSearch(ctx, r, res, sk, sides, cfg, baseCfg)
		for _, ss := range sides {
			m.record(ss, log)
		}
	}
	return res
}

func (m *measurement) sideOf(pl planned, side vocab.Side, th compare.Config) *sideSearch {
	req, prepare, _ := groupOf(pl.scenario, pl.endpoint) // checked by planSearch
	sp := m.windowSpec(specOf(pl.scenario, pl.endpoint, th), pl.scenario.Capacity, pl.scenario.Warmup)
	return &sideSearch{pl: pl, side: side, spec: sp, s: capacity.New(sp), req: req, prepare: prepare}
}

// runSearch measures the levels of one search (both variants' in turn in
// an A/B run) until each search is done or the run is cut.
func (m *measurement) runSearch(ctx context.Context, r *probe.Runner, res probe.Result, sk *sink, sides []*sideSearch, cfg, baseCfg *suite.Config) probe.Result {
	for moved := true; moved && res.Cause == "" && ctx.Err() == nil; {
		moved = false
		for _, ss := range sides {
			v, ok := ss.s.Next()
			if !ok {
				continue
			}
			moved = true
			res = combine(res, m.level(ctx, r, res, sk, ss, v, cfg, baseCfg))
			if res.Cause != "" || ctx.Err() != nil {
				break
			}
		}
	}
	if ctx.Err() != nil && res.Cause == "" {
		res.Cause = vocab.Interrupted
	}
	for _, ss := range sides {
		if res.Cause != "" {
			ss.s.Cut(res.Cause)
			ss.why = stopText(res)
		} else if !ss.s.Result().Complete() {
			ss.why = ss.capWords()
		}
	}
	return res
}

// capWords says which of its own caps cut a search.
func (ss *sideSearch) capWords() string {
	r := ss.s.Result()
	if c := ss.spec; c.MaxRequests > 0 && r.Requests+c.Requests+c.Warmup > c.MaxRequests {
		return fmt.Sprintf("capacity.max_requests (%d) reached: the next level would send more", c.MaxRequests)
	}
	return fmt.Sprintf("capacity.max_duration (%s) reached", time.Duration(ss.spec.MaxDurationMs*1e6).Round(time.Second))
}

// level measures one level of ss at load v (its first measurement, or
// again): a group of the runner, its records into the sink as group gi, a
// first measurement stopped early once hopeless.
func (m *measurement) level(ctx context.Context, r *probe.Runner, sofar probe.Result, sk *sink, ss *sideSearch, v float64, cfg, baseCfg *suite.Config) probe.Result {
	sc := ss.pl.scenario
	sc.Concurrency, sc.Rate = 0, 0
	if ss.spec.Vary == vocab.VaryRate {
		sc.Rate = v
	} else {
		sc.Concurrency = int(v)
	}
	round, n := ss.s.Round(v)
	gi := len(m.plan)
	lp := &levelPlan{side: ss.side, label: results.Level{Vary: ss.spec.Vary, Value: v, Step: len(ss.s.Steps()) + 1}}
	if round > 1 {
		lp.label.Round = round
	}
	g := probe.Group{Request: ss.req, Prepare: ss.prepare, Requests: n, Warmup: ss.spec.Warmup,
		Concurrency: sc.Concurrency, Rate: sc.Rate, MaxInFlight: sc.MaxInFlight}
	if !m.windowOf(ctx, ss, &g, &lp.label) { // a ladder's level in its window (ladder.go)
		return probe.Result{Cause: vocab.Interrupted}
	}
	sc.Requests = g.Requests
	m.plan = append(m.plan, planned{scenario: sc, endpoint: ss.pl.endpoint, level: lp})
	variant, c := vocab.Side(""), cfg // the records' variant: the sink keeps the base's apart
	if ss.side == vocab.Base {
		variant, c = vocab.Base, baseCfg
	}
	sk.grow(priceOf(c, ss.pl.endpoint.Model))
	run := func() *results.Run { return &results.Run{Level: &lp.label, Requests: sk.of(gi, variant)} }
	if round == 1 && !ss.spec.IsLadder() { // a ladder's level is measured whole
		g.MinRequests, g.Batch, g.Decide = capacity.Batch, capacity.Batch, func(int) bool { return ss.spec.Hopeless(run()) }
	}
	m.groups = append(m.groups, g)
	lr, reached := m.levelRunner(r, sofar, sk, gi, variant, cfg)
	if reached != nil {
		return probe.Result{Cause: vocab.Capped, Cap: *reached}
	}
	var first, last time.Time // of every request of the level, warmup included
	onRecord := lr.OnRecord
	lr.OnRecord = func(g int, rec probe.Record, warmup bool) {
		end := rec.Start
		if rec.Total > 0 {
			end = end.Add(rec.Total)
		}
		if first.IsZero() || rec.Start.Before(first) {
			first = rec.Start
		}
		if end.After(last) {
			last = end
		}
		if !warmup {
			sentFrom(&lp.label, rec)
		}
		onRecord(g, rec, warmup)
	}
	res := lr.Run(ctx, []probe.Group{g})
	measured := run()
	lp.label.Status = ss.s.Add(measured, res.Sent, float64(last.Sub(first))/1e6).Status
	m.windowShort(ss, &lp.label, res, last)
	m.windowFew(ss, &lp.label, res, len(measured.Requests))
	return res
}

// levelRunner is r for the one group gi of a level: its records and costs
// as group gi's, with the variant, and the run-wide caps less what the run
// used so far; the cap already reached, if one is.
func (m *measurement) levelRunner(r *probe.Runner, sofar probe.Result, sk *sink, gi int, variant vocab.Side, cfg *suite.Config) (*probe.Runner, *probe.Cap) {
	lr := *r
	lr.GroupDone = nil // a level's group is no scenario of the plan's
	lr.Seed = r.Seed + uint64(gi)
	lr.Sink = func(_ int, rec probe.Record) { rec.Variant = variant; r.Sink(gi, rec) }
	lr.OnRecord = func(_ int, rec probe.Record, warmup bool) { rec.Variant = variant; r.OnRecord(gi, rec, warmup) }
	lr.Limits.Cost = func(_ int, rec probe.Record) float64 { rec.Variant = variant; return r.Limits.Cost(gi, rec) }
	// A level's run is scraped as a group of its own (its server_metrics
	// its own); the faults of a scenario's phases are not a level's.
	lr.Measuring = nil
	if m.scrapes != nil {
		lr.Measuring = func(int) func() { return m.scrapes.measuring(gi) }
	}
	l := cfg.Limits
	spent := sk.spent.total()
	switch {
	case l.MaxRequests > 0 && sofar.Sent >= l.MaxRequests:
		return nil, &probe.Cap{Limit: probe.CapRequests, Value: float64(l.MaxRequests)}
	case l.MaxOutputTokens > 0 && sofar.OutputTokens >= l.MaxOutputTokens:
		return nil, &probe.Cap{Limit: probe.CapOutputTokens, Value: float64(l.MaxOutputTokens)}
	case l.MaxCost > 0 && spent >= l.MaxCost:
		return nil, &probe.Cap{Limit: probe.CapCost, Value: l.MaxCost, Spent: spent}
	}
	if l.MaxRequests > 0 {
		lr.Limits.MaxRequests = l.MaxRequests - sofar.Sent
	}
	if l.MaxOutputTokens > 0 {
		lr.Limits.MaxOutputTokens = l.MaxOutputTokens - sofar.OutputTokens
	}
	if l.MaxCost > 0 {
		lr.Limits.MaxCost = l.MaxCost - spent
	}
	return &lr, nil
}

// combine is the whole run's result after a level's: the counts added,
// the first cause kept.
func combine(a, b probe.Result) probe.Result {
	a.Sent += b.Sent
	a.OutputTokens += b.OutputTokens
	if a.Cause == "" {
		a.Cause, a.Cap, a.Failure, a.Streak, a.Misread = b.Cause, b.Cap, b.Failure, b.Streak, b.Misread
	}
	return a
}

// record keeps a finished search for the results file, says what it found
// and marks the file incomplete when the search was cut.
func (m *measurement) record(ss *sideSearch, log io.Writer) {
	r := ss.s.Result()
	rec := r.Record(ss.pl.endpoint.Name, ss.pl.scenario.Name, ss.side, ss.why)
	m.records = append(m.records, rec)
	name := ss.pl.scenario.Name + " @ " + ss.pl.endpoint.Name
	if ss.side != "" {
		name += " (" + string(ss.side) + ")"
	}
	if log != nil {
		fmt.Fprintf(log, "latgate: capacity of %s: %s\n", name, report.SearchText(r, ss.why))
	}
	if !r.Complete() && m.cut == "" {
		m.cut = fmt.Sprintf("the capacity search of %s was cut (%s): a cut search is never a pass", name, ss.why)
	}
}

// grow makes room in the sink for one more group, a level priced at price.
func (s *sink) grow(price func(probe.Record) (float64, bool)) {
	s.head, s.base = append(s.head, nil), append(s.base, nil)
	s.headItems, s.baseItems = append(s.headItems, nil), append(s.baseItems, nil)
	s.headPrice, s.basePrice = append(s.headPrice, price), append(s.basePrice, price)
}

// of is group g's records of variant v so far (the base's, or the others).
func (s *sink) of(g int, v vocab.Side) []results.Request {
	if v == vocab.Base {
		return s.base[g]
	}
	return s.head[g]
}

// levelRun is the run of a level for the file: labelled with its load, in
// its variant; false when it measured nothing.
func (m *measurement) levelRun(i int, pl planned, sk *sink, cfg, baseCfg *suite.Config, region string) (results.Run, bool) {
	c, recs := cfg, vocab.Side("")
	if pl.level.side == vocab.Base {
		c, recs = baseCfg, vocab.Base
	}
	run := runOf(pl, c, pl.scenario, 1, sk.of(i, recs), region) // a level is its load: one lane
	if len(run.Requests) == 0 {
		return run, false
	}
	run.Variant = pl.level.side
	label := pl.level.label
	run.Level = &label
	sk.spent.fill(i, recs, &run)
	return run, true
}

// searchesPlan says the plan's capacity searches in its plan line ("" for
// none): "1 capacity search per side (chat-capacity @ local: 1 to 64
// users, 60 requests a level), base and head alternating level by level,
// at most 1440 requests for the two sides", most being the measured
// requests they may send.
func (m *measurement) searchesPlan(most int) string {
	searches := m.searches
	if len(searches) == 0 {
		return ""
	}
	ab := false
	var each []string
	for _, sp := range searches {
		ab = ab || sp.base != nil
		c, unit := sp.head.scenario.Capacity, "users"
		if c.Vary == vocab.VaryRate {
			unit = "requests/s"
		}
		switch {
		case m.windows != nil:
			each = append(each, fmt.Sprintf("%s @ %s: a ladder of %s, each level for its window of %s", sp.head.scenario.Name, sp.head.endpoint.Name, ladderWords(c), roundDur(c.Window)))
		case c.Levels != nil:
			each = append(each, fmt.Sprintf("%s @ %s: a ladder of %s, %d requests a level", sp.head.scenario.Name, sp.head.endpoint.Name, ladderWords(c), c.RequestsPerLevel))
		default:
			each = append(each, fmt.Sprintf("%s @ %s: %g to %g %s, %d requests a level", sp.head.scenario.Name, sp.head.endpoint.Name, c.From, c.To, unit, c.RequestsPerLevel))
		}
	}
	s := plural(len(searches), "capacity search", "capacity searches")
	if ab {
		s += " per side"
	}
	s += " (" + strings.Join(each, "; ") + ")"
	if ab {
		s += ", base and head alternating level by level"
	}
	s += fmt.Sprintf(", at most %d requests", most)
	if ab {
		s += " for the two sides"
	}
	return s
}

// searchesNote names the capacity searches' share of a plan's requests.
func searchesNote(searches []searchPlan) string {
	n := 0
	for _, sp := range searches {
		n++
		if sp.base != nil {
			n++
		}
	}
	switch n {
	case 0:
		return ""
	case 1:
		return ", and the most its capacity search may need"
	}
	return fmt.Sprintf(", and the most its %d capacity searches may need", n)
}
