package report

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/latgate/latgate/compare"
	"github.com/latgate/latgate/vocab"
)

// The headline: one line that says whether the gate passed, what decided
// it and by how much. A failure names its worst check; a pass names the
// check that came nearest to failing, with its interval: the one whose
// interval reaches farthest beyond the tolerance (no regression shown), or
// else the bounded one whose interval ends nearest to it ("TTFT p50 within
// 10% (+1.2% [−3.0%, +7.0%])").

// beyond is how far a failing check is shown beyond what it fails, in
// percent: a budget breach by its excess over the budget (a floor by its
// shortfall), a regression by the end of its interval nearest no change,
// beyond the tolerance (what the data show at least: "+20% [+14%, +26%]"
// lies 4 points beyond 10%, "+40% [+5.5%, +92%]" none; the point estimate
// without an interval; a rate's points beyond its margin), whichever is
// larger; quantiles before means (people read quantiles) and TTFT before
// TTFC, its twin.
func beyond(c compare.Check, th compare.Config) float64 {
	s := math.Inf(-1)
	if c.Status == vocab.OverBudget {
		s = 100 * (c.Current/c.Budget - 1)
		if c.Metric.HigherIsBetter() {
			s = 100 * (c.Budget/c.Current - 1)
		}
	}
	if c.Regressed {
		shown := c.DeltaPct
		if !math.IsNaN(c.CIPct[0]) {
			shown = c.CIPct[0]
		}
		d := shown - 100*th.Tolerance
		if c.Metric.IsRate() {
			d = 100*math.Abs(c.Current-c.Baseline) - 100*rateMargin(c, th)
			if lo := c.CIPoints[0]; !math.IsNaN(lo) {
				if c.Metric.HigherIsBetter() {
					lo = -c.CIPoints[1] // a drop of the good share
				}
				d = 100*lo - 100*rateMargin(c, th)
			}
		}
		s = math.Max(s, d)
	}
	if c.Metric == vocab.TTFC {
		s -= 1e-3
	}
	if c.Stat == vocab.Mean {
		s -= 1e6
	}
	return s
}

// rateMargin is the smallest change of a rate the gate counts: one point,
// or the tolerance of the baseline's failure (miss) share.
func rateMargin(c compare.Check, th compare.Config) float64 {
	miss := c.Baseline
	if c.Metric.HigherIsBetter() {
		miss = 1 - c.Baseline
	}
	if math.IsNaN(miss) {
		miss = 0
	}
	return math.Max(0.01, th.Tolerance*miss)
}

// shownChecks are the checks of rows the report shows (a row that repeats
// another is named by the one shown).
func (r *Report) shownChecks() []compare.Check {
	var out []compare.Check
	for _, s := range r.Scenarios {
		hidden := s.hiddenMetrics()
		for _, c := range s.Checks {
			if !hiddenCheck(hidden, c) {
				out = append(out, c)
			}
		}
	}
	return out
}

// Worst returns the failing check (a regression or a budget breach) that
// lies farthest beyond its tolerance or budget, if any.
func (r *Report) Worst() (compare.Check, bool) {
	var best compare.Check
	found := false
	for _, c := range r.shownChecks() {
		if c.Status != vocab.Regression && c.Status != vocab.OverBudget {
			continue
		}
		if !found || beyond(c, r.Thresholds) > beyond(best, r.Thresholds) {
			best, found = c, true
		}
	}
	return best, found
}

// nearest is the check a pass names and what it showed: a check of the
// body (p50, mean) its run could not test even at max, whose interval
// reaches farthest beyond the tolerance (the weakest claim: nothing was
// tested where a change would matter most); else the unbounded one whose
// interval reaches farthest beyond the tolerance (no regression shown);
// else the bounded one whose interval ends nearest to it. A relative P95
// the run could not test is never named here: the not-tested line says it
// once. ok false when none qualifies.
func (r *Report) nearest() (c compare.Check, st vocab.Status, ok bool) {
	// How far the interval's worse end lies beyond the threshold, as a
	// share of the threshold (the tolerance, a rate's margin).
	excess := func(c compare.Check) float64 {
		switch {
		case c.Metric == vocab.Errors:
			return c.CIPoints[1]/rateMargin(c, r.Thresholds) - 1
		case c.Metric.HigherIsBetter():
			return -c.CIPoints[0]/rateMargin(c, r.Thresholds) - 1
		}
		return c.CIPct[1]/(100*r.Thresholds.Tolerance) - 1
	}
	untestedBody := func(x compare.Check) bool {
		return x.Status == vocab.NotTested && x.Reason == vocab.Underpowered && !x.Metric.IsRate() &&
			(x.Stat == vocab.P50 || x.Stat == vocab.Mean) && excess(x) > 0
	}
	// Unbounded first (not tested in the body, or no regression shown,
	// ranked together), then bounded.
	for _, want := range []func(compare.Check) bool{
		func(x compare.Check) bool { return untestedBody(x) || x.Status == vocab.NoRegressionShown },
		func(x compare.Check) bool { return x.Status == vocab.WithinTolerance },
	} {
		for _, x := range r.shownChecks() {
			e := excess(x)
			if !want(x) || math.IsNaN(e) {
				continue
			}
			if !ok || e > excess(c) || e == excess(c) && statRank[x.Stat] < statRank[c.Stat] {
				c, ok = x, true
			}
		}
		if ok {
			return c, c.Status, true
		}
	}
	return c, "", false
}

// headline is the one-line verdict; esc escapes names for the target format.
func headline(r *Report, esc func(string) string) string {
	h := string(r.Verdict) + ": "
	if c := capacityHeadline(r.Capacity, esc); c != "" {
		h += c
		if len(r.Scenarios) == 0 {
			return h
		}
		h += "; "
	}
	if slices.ContainsFunc(r.Result.Checks, func(c compare.Check) bool { return c.Fails(r.Thresholds.FailOn) }) || r.Count(vocab.Regression)+r.Count(vocab.OverBudget) > 0 {
		return h + failHeadline(r, esc)
	}
	return h + passHeadline(r, esc)
}

// failHeadline counts what fails and names the worst of it.
func failHeadline(r *Report, esc func(string) string) string {
	var parts []string
	if k := r.Count(vocab.Regression); k > 0 {
		s := plural(k, "regression", "regressions")
		if slices.ContainsFunc(r.Result.Checks, func(c compare.Check) bool { return c.Confirmed }) {
			s += " (confirmed by a fresh interleaved run)"
		}
		parts = append(parts, s)
	}
	if k := r.Count(vocab.OverBudget); k > 0 {
		parts = append(parts, fmt.Sprintf("%d over budget", k))
	}
	if k := r.Count(vocab.Inconclusive); k > 0 {
		parts = append(parts, fmt.Sprintf("%d inconclusive", k))
	}
	if k := r.strictFailing(); k > 0 {
		parts = append(parts, plural(k, "check", "checks")+" not tested or unbounded (fail_on: "+strictNames(r.Thresholds.FailOn)+")")
	}
	if k := r.Count(vocab.NoBaseline); k > 0 {
		parts = append(parts, fmt.Sprintf("%d without baseline", k))
	}
	if k := len(r.untestedBudgets()); k > 0 {
		parts = append(parts, plural(k, "budget", "budgets")+" not tested")
	}
	h := strings.Join(parts, ", ") + " in " + plural(len(r.Scenarios), "scenario", "scenarios")
	if len(parts) == 0 {
		h = "no failing check in " + plural(len(r.Scenarios), "scenario", "scenarios")
	}
	if w, ok := r.Worst(); ok {
		h = r.describeCheck(w, esc, len(r.Scenarios) > 1) + "; " + h
	}
	return h
}

// passHeadline names what decided a pass: the inconclusive checks, or the
// check nearest to failing with its interval, or that nothing could be
// tested.
func passHeadline(r *Report, esc func(string) string) string {
	many := len(r.Scenarios) > 1
	var tail []string
	if k := r.Count(vocab.Improvement); k > 0 {
		tail = append(tail, plural(k, "scenario", "scenarios")+" faster")
	}
	if k := r.Count(vocab.NoBaseline); k > 0 {
		tail = append(tail, fmt.Sprintf("%d without baseline", k))
	}
	var h string
	incon := inconclusiveChecks(r)
	c, shown, ok := r.nearest()
	bounded := shown == vocab.WithinTolerance
	tol := trimFloat(100*r.Thresholds.Tolerance) + "%"
	switch {
	case len(incon) > 0:
		c := incon[0]
		h = fmt.Sprintf("%s inconclusive: %s %s — significant alone, not after the suite's correction", plural(len(incon), "check", "checks"), r.where(c, esc, many), changeWords(c))
		if c.NeedN > 0 {
			h += fmt.Sprintf("; about %s requests per side would decide it", approx(c.NeedN))
		}
	case ok && bounded:
		within := tol
		if c.Metric.IsRate() {
			within = trimFloat(100*rateMargin(c, r.Thresholds)) + " points"
			if within == "1 points" {
				within = "1 point"
			}
		}
		words := changeWords(c)
		if !c.Metric.IsRate() && c.CIPct[1] > 100*r.Thresholds.Tolerance && c.MinDelta > 0 {
			// Bounded by min_delta, not by the tolerance: say that bound.
			within = trimFloat(c.MinDelta) + " ms"
			worst := c.Baseline * c.CIPct[1] / 100
			if worst < 10 {
				words += fmt.Sprintf(", at most %+.1f ms", worst)
			} else {
				words += fmt.Sprintf(", at most %+.0f ms", worst)
			}
		}
		h = fmt.Sprintf("%s within %s (%s)", r.where(c, esc, many), within, words)
		if n := r.countStatus(vocab.WithinTolerance); n > 1 {
			h += fmt.Sprintf(", the nearest of %d checks within it", n)
		}
	case ok && shown == vocab.NotTested:
		h = fmt.Sprintf("%s not tested at %s requests per side (%s; about %s would test it)", r.where(c, esc, many), grouped(min(c.NBase, c.NCurrent)), changeWords(c), approx(c.NeedN))
	case ok:
		h = fmt.Sprintf("no regression shown (%s %s", r.where(c, esc, many), changeWords(c))
		if shownWorse(c) {
			h += ": worse, not shown beyond " + tol
		} else if c.NeedN > 0 {
			h += fmt.Sprintf("; about %s requests per side would bound it", approx(c.NeedN))
		}
		h += ")"
	case len(r.Scenarios) > 0 && r.Count(vocab.NoBaseline) == len(r.Scenarios):
		h, tail = "no baseline to compare with", nil
		if u := untestedBudgetWords(r, esc); u != "" {
			tail = []string{u}
		} else if r.countStatus(vocab.OK) > 0 || slices.ContainsFunc(r.Result.Checks, func(c compare.Check) bool { return !math.IsNaN(c.Budget) }) {
			h += "; every budget met"
		}
	case len(r.Scenarios) > 0:
		h = "no change could be tested"
		if c, ok := r.leastNeed(); ok {
			h += fmt.Sprintf(" at %s per side (%s needs about %s)", plural(min(c.NBase, c.NCurrent), "request", "requests"), r.where(c, esc, many), approx(c.NeedN))
		}
	default:
		h = "nothing measured"
	}
	if u := untestedBudgetWords(r, esc); u != "" && !slices.Contains(tail, u) {
		tail = append(tail, u)
	}
	if len(tail) > 0 {
		h += "; " + strings.Join(tail, ", ")
	}
	return h
}

// where names a check: its metric and statistic, and its scenario when the
// report has several.
func (r *Report) where(c compare.Check, esc func(string) string, scenario bool) string {
	s := metricName(c.Metric)
	if !c.Metric.IsRate() {
		s += " " + string(c.Stat)
	}
	s += r.stratumWords(c)
	if scenario {
		return esc(short(c.Scenario, 48)) + " @ " + esc(short(c.Endpoint, 48)) + " " + s
	}
	return s
}

// changeWords is a check's change with its interval: "+1.2% [−3.0%,
// +7.0%]", "0% → 0.5%, +0.5 pts [−0.4, +1.6]".
func changeWords(c compare.Check) string {
	if c.Metric.IsRate() {
		s := fmt.Sprintf("%s%% → %s%%, %+.1f pts", trimFloat(100*c.Baseline), trimFloat(100*c.Current), 100*(c.Current-c.Baseline))
		if !math.IsNaN(c.CIPoints[0]) {
			s += fmt.Sprintf(" [%+.1f, %+.1f]", 100*c.CIPoints[0], 100*c.CIPoints[1])
		}
		return s
	}
	s := signedPct(c.DeltaPct)
	if !math.IsNaN(c.CIPct[0]) {
		s += fmt.Sprintf(" [%s, %s]", signedPct(c.CIPct[0]), signedPct(c.CIPct[1]))
	}
	return s
}

// inconclusiveChecks are the shown inconclusive checks, the largest change
// first.
func inconclusiveChecks(r *Report) []compare.Check {
	var out []compare.Check
	for _, c := range r.shownChecks() {
		if c.Doubtful() {
			out = append(out, c)
		}
	}
	slices.SortStableFunc(out, func(a, b compare.Check) int {
		switch {
		case a.DeltaPct > b.DeltaPct:
			return -1
		case a.DeltaPct < b.DeltaPct:
			return 1
		}
		return 0
	})
	return out
}

// countStatus counts the shown checks of status st.
func (r *Report) countStatus(st vocab.Status) int {
	n := 0
	for _, c := range r.shownChecks() {
		if c.Status == st {
			n++
		}
	}
	return n
}

// leastNeed is the shown not-tested latency check that needs the fewest
// requests per side to be tested.
func (r *Report) leastNeed() (compare.Check, bool) {
	var best compare.Check
	found := false
	for _, c := range r.shownChecks() {
		if c.Status != vocab.NotTested || c.NeedN == 0 || c.Metric.IsRate() {
			continue
		}
		if !found || c.NeedN < best.NeedN {
			best, found = c, true
		}
	}
	return best, found
}

// strictFailing counts the checks that fail the gate with no badge of
// their own: not tested or unbounded checks of a gate whose fail_on lists
// not_tested or no_regression_shown.
func (r *Report) strictFailing() int {
	n := 0
	for _, c := range r.Result.Checks {
		if (c.Status == vocab.NotTested || c.Status == vocab.NoRegressionShown) && c.Fails(r.Thresholds.FailOn) {
			n++
		}
	}
	return n
}

// strictNames lists the statuses of failOn that fail checks without a
// badge.
func strictNames(failOn []vocab.Status) string {
	var out []string
	for _, st := range failOn {
		if st == vocab.NotTested || st == vocab.NoRegressionShown {
			out = append(out, string(st))
		}
	}
	return strings.Join(out, ", ")
}

// Headline is the report's one-line verdict, plain: for a caller that
// changed the verdict or the capacity searches after Build.
func Headline(r *Report) string { return headline(r, func(s string) string { return s }) }

// describeCheck names a failing check and by how much it fails, its
// scenario first when the report has several.
func (r *Report) describeCheck(c compare.Check, esc func(string) string, scenario bool) string {
	th := r.Thresholds
	s := r.where(c, esc, scenario)
	switch {
	case c.Metric.HigherIsBetter() && c.Status == vocab.OverBudget:
		return fmt.Sprintf("%s %s%% below its floor of %s%%", s, trimFloat(100*c.Current), trimFloat(100*c.Budget))
	case c.Metric.IsRate():
		return fmt.Sprintf("%s %s%% → %s%%", s, trimFloat(100*c.Baseline), trimFloat(100*c.Current))
	case c.Status == vocab.OverBudget && !(c.Regressed && c.DeltaPct-100*th.Tolerance > 100*(c.Current/c.Budget-1)):
		return s + fmt.Sprintf(" %s ms over its %s ms budget", Millis(c.Current), Millis(c.Budget)) + baseOverBudget(c)
	case !math.IsNaN(c.DeltaPct) && c.Metric.IsCount():
		return s + fmt.Sprintf(" %s (%.2f → %.2f per session), a regression", signedPct(c.DeltaPct), c.Baseline, c.Current) // a count, not a time
	case !math.IsNaN(c.DeltaPct) && c.Status == vocab.OverBudget: // both: the change is further beyond
		return s + fmt.Sprintf(" %s (%s → %s ms), a regression and over its %s ms budget", signedPct(c.DeltaPct), Millis(c.Baseline), Millis(c.Current), Millis(c.Budget))
	case !math.IsNaN(c.DeltaPct):
		return s + fmt.Sprintf(" %s (%s → %s ms), a regression", signedPct(c.DeltaPct), Millis(c.Baseline), Millis(c.Current))
	}
	return s
}

// baseOverBudget says, of a check over its budget, that the baseline was
// over it too, when it was: the breach is not this change's doing, though
// the budget (absolute) fails the gate all the same.
func baseOverBudget(c compare.Check) string {
	if c.Metric.HigherIsBetter() || math.IsNaN(c.Baseline) || math.IsNaN(c.Budget) || c.Baseline <= c.Budget {
		return ""
	}
	return fmt.Sprintf(" (the baseline's %s ms was over it too)", Millis(c.Baseline))
}

// overBudgetWords says a budget breach with the current statistic's
// distribution-free interval and whether the baseline was over too: "1508
// [1190, 1720] is over its budget of 300 (the baseline's 164 was not)";
// v formats a value in the row's unit.
func overBudgetWords(c compare.Check, v func(float64) string) string {
	s := v(c.Current)
	if lo, hi := c.CurrentCI[0], c.CurrentCI[1]; !math.IsNaN(lo) && !math.IsNaN(hi) {
		s += fmt.Sprintf(" [%s, %s]", v(lo), v(hi))
	}
	s += " is over its budget of " + v(c.Budget)
	switch {
	case math.IsNaN(c.Baseline):
	case c.Baseline > c.Budget:
		s += fmt.Sprintf(" (the baseline's %s was over it too)", v(c.Baseline))
	default:
		s += fmt.Sprintf(" (the baseline's %s was not)", v(c.Baseline))
	}
	return s
}

// shownWorse reports whether a latency check's interval lies wholly on the
// worse side of no change.
func shownWorse(c compare.Check) bool {
	return !c.Metric.IsRate() && !math.IsNaN(c.CIPct[0]) && c.CIPct[0] > 0
}
