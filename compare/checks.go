package compare

import (
	"math"

	"github.com/latgate/latgate/vocab"
)

// The checks of one (endpoint, scenario), as the stored, A/B and history
// comparisons build them: one builder (newCheck) for every check, one
// function per kind of check. How a check is tested differs by design
// (permutations for stored and A/B runs, run-level tests for a history);
// what it is, its values, budget and untestable cases do not.

// nan2 is an interval that was not computed.
var nan2 = [2]float64{math.NaN(), math.NaN()}

// newCheck is a check of (endpoint, scenario, metric, stat) with nothing
// estimated yet: every value NaN, its budget set (a floor for the rates
// whose drop is the regression).
func newCheck(endpoint, scenario string, m vocab.Metric, st vocab.Stat, cfg Config) Check {
	c := Check{
		Endpoint: endpoint, Scenario: scenario, Metric: m, Stat: st,
		Baseline: math.NaN(), Current: math.NaN(), CurrentCI: nan2,
		DeltaPct: math.NaN(), CIPct: nan2, CIPoints: nan2, PValue: math.NaN(), RawP: math.NaN(),
		Budget: budgetFor(cfg, m, st), Spread: math.NaN(),
	}
	if m.HigherIsBetter() {
		c.Budget = floorFor(cfg, m, st)
	}
	return c
}

// latencyCheck is the check of statistic st of a latency metric, from the
// sorted successful values of each side (bv is empty without a baseline).
// The current value gets its distribution-free interval.
func latencyCheck(endpoint, scenario string, m vocab.Metric, st statDef, bv, cv []float64, cfg Config, cur *Sample) Check {
	c := newCheck(endpoint, scenario, m, st.name, cfg)
	c.Baseline, c.NBase = st.of(bv), len(bv)
	c.Current, c.NCurrent = st.of(cv), len(cv)
	c.MinDelta = minDelta(cfg, m, cur)
	if st.q > 0 {
		c.CurrentCI = QuantileCI(cv, st.q, cfg.ciAlpha)
	}
	return c
}

// skipP99 reports whether a p99 check is left out: p99 is checked only
// when every side has the requests it needs, or when it is budgeted.
func skipP99(st statDef, n []int, cfg Config, m vocab.Metric) bool {
	if st.name != vocab.P99 || hasBudget(cfg, m, st.name) {
		return false
	}
	for _, k := range n {
		if k < st.minN() {
			return true
		}
	}
	return false
}

// BudgetUntested reports whether the check holds a latency statistic to a
// budget that its current run has too few successful requests to test:
// fewer than the statistic needs (vocab.Stat.MinN, the count the suite's
// warning on requests names; p95: 40). Such a budget is not tested (its
// NeedN the requests that would test it), never over budget: the p95 of 5
// requests is their largest but one, not a p95. (A server stage the
// server does not report is not tested for that, vocab.NotReported.)
func (c Check) BudgetUntested() bool {
	return !math.IsNaN(c.Budget) && !c.Metric.IsRate() && c.NCurrent < c.Stat.MinN() && c.Reason != vocab.NotReported
}

// untestable marks c not tested for reason, with the requests per side
// that would make it testable (0 = unknown).
func untestable(c *Check, reason vocab.Reason, need int) {
	c.Status, c.Reason, c.NeedN = vocab.NotTested, reason, need
}

// tooFew marks a check short of successful requests: it needs minN per
// side, and with the failures seen, NeedN requests per side give them.
func tooFew(c *Check, minN int, base, cur *Sample) {
	untestable(c, vocab.TooFew, minN)
	if reqs := requestsFor(minN, base, cur); reqs > 0 {
		c.NeedN = reqs
	}
	c.NeedN = c.runRequests(c.NeedN)
}

// errorCheck is the error-rate check of a run: the share of failed
// requests on each side.
func errorCheck(r Pair, cfg Config) Check {
	c := newCheck(r.Endpoint, r.Scenario, vocab.Errors, vocab.Rate, cfg)
	c.Baseline, c.NBase = failRate(r.Base)
	c.Current, c.NCurrent = failRate(r.Head)
	if c.Baseline > 0 {
		c.DeltaPct = pct(c.Current, c.Baseline)
	}
	return c
}

// goodputCheck is the share of requests that succeeded and met every SLO
// objective, on each side; its floor is its budget.
func goodputCheck(r Pair, cfg Config) Check {
	c := newCheck(r.Endpoint, r.Scenario, vocab.Goodput, vocab.Rate, cfg)
	c.Baseline, c.Current = goodShare(r.Base, cfg.Goodput), goodShare(r.Head, cfg.Goodput)
	_, c.NBase = failRate(r.Base)
	_, c.NCurrent = failRate(r.Head)
	return c
}

// cacheCheck holds the prompt-cache hit rate against its floor; nil when
// the suite sets no floor. It is a budget check only: ok, over budget, or
// inconclusive when the server reports no prompt tokens.
func cacheCheck(r Pair, cfg Config) *Check {
	floor := floorFor(cfg, vocab.CacheHitRate, vocab.Min)
	if math.IsNaN(floor) {
		return nil
	}
	c := newCheck(r.Endpoint, r.Scenario, vocab.CacheHitRate, vocab.Min, cfg)
	c.Baseline, c.Current = cacheShare(r.Base), cacheShare(r.Head)
	_, c.NBase = failRate(r.Base)
	_, c.NCurrent = failRate(r.Head)
	c.Status = vocab.OK
	if math.IsNaN(c.Current) {
		untestable(&c, vocab.NoPromptTokens, 0)
	}
	return &c
}

// Untested reports whether the check could not be tested (too few
// requests, a run too small to catch twice the tolerance, no baseline runs
// to estimate a spread from, …), as opposed to tested without
// significance.
func (c Check) Untested() bool {
	return c.Status == vocab.NotTested
}

// Doubtful reports the one status a reviewer must weigh: a change for the
// worse, significant on its own, not after the suite's correction (or not
// confirmed by a fresh run), which a rerun or more requests would decide.
func (c Check) Doubtful() bool {
	return c.Status == vocab.Inconclusive
}

// Flagged reports whether the check's status is one a reader must see: a
// regression, an improvement, an inconclusive change, a blown budget, a
// new scenario. Within tolerance, no regression shown and not tested say
// what the data showed, and flag nothing.
func (c Check) Flagged() bool {
	switch c.Status {
	case vocab.Regression, vocab.Improvement, vocab.Inconclusive, vocab.OverBudget, vocab.NoBaseline:
		return true
	}
	return false
}

// Reestimate is check c with its point estimates (baseline, current,
// change and counts) recomputed on run r: what an interim look decided on
// the data it had, said with the data measured when the run stopped (the
// requests in flight at the stop come in after the look), so that the stop
// line and the comparison give one count and one figure.
func Reestimate(c Check, r Pair, cfg Config) Check {
	switch c.Metric {
	case vocab.Errors:
		e := errorCheck(r, cfg)
		c.Baseline, c.Current, c.NBase, c.NCurrent, c.DeltaPct = e.Baseline, e.Current, e.NBase, e.NCurrent, e.DeltaPct
		return c
	case vocab.Goodput:
		g := goodputCheck(r, cfg)
		c.Baseline, c.Current, c.NBase, c.NCurrent = g.Baseline, g.Current, g.NBase, g.NCurrent
		return c
	}
	for _, st := range statDefs {
		if st.name == c.Stat {
			bv, cv := okValuesIn(r.Base, c.Metric, c.Stratum), okValuesIn(r.Head, c.Metric, c.Stratum)
			c.Baseline, c.NBase = st.of(bv), len(bv)
			c.Current, c.NCurrent = st.of(cv), len(cv)
			c.DeltaPct = pct(c.Current, c.Baseline)
		}
	}
	return c
}
