package compare

import (
	"slices"

	"github.com/latgate/latgate/vocab"
)

// Confirm applies the confirmation runs of an A/B suite
// (regression.confirm) to its result: each scenario whose checks regressed
// was measured again, both variants interleaved in fresh blocks, and a
// regression stands only when the same check of the fresh run is a
// regression too (Check.Confirmed); otherwise it is inconclusive,
// vocab.Unconfirmed. The fresh runs are compared on their own, as a suite,
// at cfg.Alpha: a false failure needs a false alarm in the suite and
// another in fresh data, independent of it, so its probability is at most
// Alpha² per confirmed suite; the price is power, the product of the two
// runs' (docs/statistics.md, "Confirmation", measures both). Without
// confirmation runs res is returned as it is.
//
// The runs come from a results file, which may be hostile (a pull
// request's upload): they count only when the judging configuration asks
// for them (cfg.Confirm), and only those with at least the requests per
// side of the run they confirm (of runs, the first run's pairs). Any other
// is ignored, with a warning (vocab.ConfirmNotAsked, vocab.ConfirmTooFew).
func Confirm(res Result, runs, confirm []Pair, cfg Config) Result {
	if len(confirm) == 0 {
		return res
	}
	counted, ignored := confirmations(runs, confirm, cfg)
	out := res
	out.Warnings = append(slices.Clip(res.Warnings), ignored...)
	if len(counted) == 0 {
		return out
	}
	cfg.defaults()
	fresh := Compare(counted, cfg)
	type key struct {
		endpoint, scenario string
		metric             vocab.Metric
		stat               vocab.Stat
		stratum            int
	}
	status := map[key]vocab.Status{}
	measured := map[[2]string]bool{}
	for _, c := range fresh.Checks {
		status[key{c.Endpoint, c.Scenario, c.Metric, c.Stat, c.Stratum}] = c.Status
		measured[[2]string{c.Endpoint, c.Scenario}] = true
	}
	out.Checks = append([]Check(nil), res.Checks...)
	for i := range out.Checks {
		c := &out.Checks[i]
		if c.Status != vocab.Regression || !measured[[2]string{c.Endpoint, c.Scenario}] {
			continue
		}
		if status[key{c.Endpoint, c.Scenario, c.Metric, c.Stat, c.Stratum}] == vocab.Regression {
			c.Confirmed = true
			continue
		}
		c.Status, c.Reason, c.Regressed = vocab.Inconclusive, vocab.Unconfirmed, false
	}
	out.Verdict = verdict(out.Checks, cfg)
	return out
}

// confirmations splits confirm into the pairs that count and warnings for
// those ignored. A confirmation of a scenario the first run does not have
// confirms nothing: it is left out without a word.
func confirmations(runs, confirm []Pair, cfg Config) (counted []Pair, ignored []Warning) {
	if !cfg.Confirm {
		for _, c := range confirm {
			ignored = append(ignored, Warning{Kind: vocab.ConfirmNotAsked, Endpoint: c.Endpoint, Scenario: c.Scenario})
		}
		return nil, ignored
	}
	n := func(s *Sample) int {
		if s == nil {
			return 0
		}
		return s.N()
	}
	need := map[[2]string]int{}
	for _, r := range runs {
		need[[2]string{r.Endpoint, r.Scenario}] = max(n(r.Base), n(r.Head))
	}
	for _, c := range confirm {
		want, have := need[[2]string{c.Endpoint, c.Scenario}], min(n(c.Base), n(c.Head))
		switch {
		case want == 0:
		case have < want:
			ignored = append(ignored, Warning{Kind: vocab.ConfirmTooFew, Endpoint: c.Endpoint, Scenario: c.Scenario, N: have, Need: want})
		default:
			counted = append(counted, c)
		}
	}
	return counted, ignored
}
