package gate

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/latgate/latgate/compare"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/suite"
	"github.com/latgate/latgate/vocab"
)

// Confirmation (regression.confirm). After an A/B measurement whose
// comparison finds regressions, the scenarios that regressed (only those)
// are measured again, both variants interleaved in fresh blocks, as many
// requests per side as the first run measured (the most of either
// variant on any endpoint), at a fixed count; their runs go into the same
// file marked confirm, and the comparison keeps a regression only when
// the fresh run finds it again (compare.Confirm) and the judging suite
// sets regression.confirm: a file's confirmation runs with fewer requests
// per side than the run they confirm, or judged by a suite that does not
// ask for them, are ignored.

// confirm measures the confirmation runs of f's regressed scenarios and
// adds them to f; f as it is when nothing regressed or the suite does not
// confirm.
func confirm(ctx context.Context, f *results.File, base, head *suite.Config, opt MeasureOptions) (*results.File, error) {
	if !head.Regression.Confirm || base == nil {
		return f, nil
	}
	th := opt.Thresholds
	if th == nil {
		c, err := CompareConfig(head, Overrides{})
		if err != nil {
			return f, err
		}
		th = &c
	}
	res := CompareRuns(f, compare.Pairs(results.MatchVariants(f)), *th)
	counts := map[string]int{} // scenario → requests per side to measure again
	for _, c := range res.Checks {
		if c.Status != vocab.Regression {
			continue
		}
		for _, r := range f.Runs {
			if r.Scenario == c.Scenario && r.Variant != "" && !r.Confirm {
				counts[c.Scenario] = max(counts[c.Scenario], len(r.Requests))
			}
		}
	}
	if len(counts) == 0 {
		return f, nil
	}
	names := make([]string, 0, len(counts))
	for name, n := range counts {
		names = append(names, fmt.Sprintf("%s (%d requests per side)", name, n))
	}
	slices.Sort(names)
	if opt.Progress != nil {
		fmt.Fprintf(opt.Progress, "latgate: regression.confirm: measuring %s again, both variants interleaved in fresh blocks\n", strings.Join(names, ", "))
	}
	o := opt
	o.Baseline = nil
	cf, err := measure(ctx, only(head, counts), only(base, counts), o)
	if cf != nil {
		for _, r := range cf.Runs {
			r.Confirm = true
			f.Runs = append(f.Runs, r)
		}
		addCost(f, cf)
		if cf.Incomplete != "" {
			f.Incomplete = "the confirmation run: " + cf.Incomplete
		}
	}
	return f, err
}

// only is cfg with just the scenarios of counts, each at its count (fixed:
// no adaptive looks).
func only(cfg *suite.Config, counts map[string]int) *suite.Config {
	c := *cfg
	c.Scenarios = nil
	for _, s := range cfg.Scenarios {
		if n, ok := counts[s.Name]; ok {
			s.Requests, s.RequestsMin = n, 0
			c.Scenarios = append(c.Scenarios, s)
		}
	}
	c.Regression.Confirm = false
	return &c
}

// addCost adds what the confirmation paid to the file's cost.
func addCost(f, cf *results.File) {
	if cf.CostUSD == nil {
		return
	}
	sum := *cf.CostUSD
	if f.CostUSD != nil {
		sum += *f.CostUSD
	}
	f.CostUSD = &sum
}
