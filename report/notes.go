package report

import (
	"fmt"
	"math"

	"github.com/latgate/latgate/compare"
	"github.com/latgate/latgate/vocab"
)

// note is the words for a check's reason (why its status is what it is,
// when the status alone does not say it); "" when it has none.
func note(c compare.Check, th compare.Config) string {
	minN := c.Stat.MinN()
	switch c.Reason {
	case vocab.TooFew:
		s := fmt.Sprintf("need %d successful requests per side to test %s (have %d and %d)", minN, c.Stat, c.NBase, c.NCurrent)
		if c.NeedN > minN {
			s += fmt.Sprintf("; with the failures seen, set requests to at least %d", c.NeedN)
		}
		return s
	case vocab.TooFewCurrent:
		return fmt.Sprintf("need %d successful requests to test %s (have %d)", minN, c.Stat, c.NCurrent)
	case vocab.NoRequests:
		return "no requests on one side, so the rate cannot be compared"
	case vocab.NoPromptTokens:
		return "the server reported no prompt tokens, so the cache hit rate cannot be checked against its floor"
	case vocab.NotSignificant:
		if c.NeedN > 0 {
			return fmt.Sprintf("change beyond tolerance but not significant; roughly %d requests per side might decide it", c.NeedN)
		}
		return "change beyond tolerance but not significant"
	case vocab.HistoryTooShort:
		return fmt.Sprintf("need two baseline runs with %d successful requests to estimate the run-to-run spread of %s (have %d of %d runs)", minN, c.Stat, c.RunsUsable, c.RunsTotal)
	case vocab.HistorySpread:
		return fmt.Sprintf("run-to-run spread of %s in the baseline history (±%.0f%%) exceeds the tolerance (%.0f%%): stored baselines cannot tell a change of this size from drift; compare both variants interleaved with `latgate ab`",
			c.Stat, c.Spread*100, th.Tolerance*100)
	case vocab.HistoryNotSignificant:
		return "change beyond tolerance but not significant against the run-to-run spread of the baseline history"
	case vocab.NotPositive:
		return "current value is not positive"
	}
	return ""
}

// summarized reports whether the suite's notes say a reason once for every
// check it applies to (statistics not tested for too few requests, changes
// not significant), so a row need not repeat it.
func summarized(r vocab.Reason) bool {
	switch r {
	case vocab.TooFew, vocab.TooFewCurrent, vocab.HistoryTooShort, vocab.NotSignificant, vocab.HistoryNotSignificant:
		return true
	}
	return false
}

// warnings are the words for what the comparison could not do as asked,
// and for the design an adaptive suite was compared under.
func warnings(res compare.Result) []string {
	var out []string
	for _, w := range res.Warnings {
		switch w.Kind {
		case vocab.Unblocked:
			out = append(out, fmt.Sprintf("%s / %s: block numbers missing on one side or not one per request; compared as unpaired runs", w.Endpoint, w.Scenario))
		case vocab.OneSidedBlocks:
			out = append(out, fmt.Sprintf("%s / %s: requests in blocks measured on one side only (%d) take no part in the tests, which exchange labels within blocks; the estimates include them", w.Endpoint, w.Scenario, w.N))
		}
	}
	if d := res.Design; d != nil {
		out = append(out, fmt.Sprintf("adaptive sampling: each scenario was compared on its own at alpha %.4g (the suite's %.3g split over its scenarios and over %d planned looks), so the suite's false-alarm rate stays at %.3g", d.RunAlpha(), d.Alpha, d.Looks, d.Alpha))
	}
	return out
}

// LookText is the words for an interim look of adaptive sampling: what
// stopped the scenario ("regression (ttft p95 +34.0%)", "no change beyond
// 10%") or what is still open.
func LookText(d compare.Decision, th compare.Config) string {
	c := d.Check
	switch {
	case d.Stop && d.Outcome == vocab.Regression && c != nil:
		return fmt.Sprintf("regression (%s %s %+.1f%%)", c.Metric, c.Stat, c.DeltaPct)
	case d.Stop:
		return fmt.Sprintf("no change beyond %g%%", math.Round(th.Tolerance*1000)/10)
	case c == nil:
		return "no baseline to compare with"
	case c.Reason == vocab.TooFew:
		return fmt.Sprintf("%s %s: %s", c.Metric, c.Stat, note(*c, th))
	}
	return fmt.Sprintf("%s %s %+.1f%% undecided", c.Metric, c.Stat, c.DeltaPct)
}
