package compare

import (
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
func Confirm(res Result, confirm []Pair, cfg Config) Result {
	if len(confirm) == 0 {
		return res
	}
	cfg.defaults()
	fresh := Compare(confirm, cfg)
	type key struct {
		endpoint, scenario string
		metric             vocab.Metric
		stat               vocab.Stat
	}
	status := map[key]vocab.Status{}
	measured := map[[2]string]bool{}
	for _, c := range fresh.Checks {
		status[key{c.Endpoint, c.Scenario, c.Metric, c.Stat}] = c.Status
		measured[[2]string{c.Endpoint, c.Scenario}] = true
	}
	out := res
	out.Checks = append([]Check(nil), res.Checks...)
	for i := range out.Checks {
		c := &out.Checks[i]
		if c.Status != vocab.Regression || !measured[[2]string{c.Endpoint, c.Scenario}] {
			continue
		}
		if status[key{c.Endpoint, c.Scenario, c.Metric, c.Stat}] == vocab.Regression {
			c.Confirmed = true
			continue
		}
		c.Status, c.Reason, c.Regressed = vocab.Inconclusive, vocab.Unconfirmed, false
	}
	out.Verdict = verdict(out.Checks, cfg)
	return out
}
