package compare

import (
	"math"

	"github.com/montanaflynn/stats"

	"github.com/latgate/latgate/vocab"
)

// How many requests a check needs, in one place: every figure latgate
// prints of "requests per side that would …" comes from here.
//
//   - detectN: those that would catch a regression of twice the tolerance
//     with 80% power, after the suite's correction (the A/A table's
//     figure, latgate init's, and a not_tested check's DetectN): from the
//     standard error of the check's own test.
//   - noiseBoundN: those at which an unchanged statistic's interval would
//     fit within the tolerance; a not_tested check's NeedN is the larger
//     of it and detectN.
//   - boundN: those that would bound a change of the observed size within
//     the tolerance (no_regression_shown): from the check's interval.
//   - neededN: those that would make an inconclusive change significant
//     after the correction: from its raw p-value.
//
// Each scales the requests measured by the square of a ratio of standard
// errors (scaleN): a test's or an interval's standard error shrinks as
// 1/√n. They assume the observed noise (and for boundN and neededN the
// observed change) is the true one, so they are estimates: "about".

// scaleN is n·ratio², at least 1 and at most a million.
func scaleN(n int, ratio float64) int {
	need := float64(n) * ratio * ratio
	if math.IsNaN(need) || need > 1e6 {
		return 1000000
	}
	return max(1, int(math.Ceil(need)))
}

// detectZ is the normal score a regression test must reach to be flagged
// with 80% power: the one-sided Bonferroni threshold over the tested
// checks (maxT is a little less strict) plus z₀.₈.
func detectZ(alpha float64, tested int) float64 {
	return stats.NormPpf(1-alpha/float64(max(tested, 1)), 0, 1) + z80
}

// detectN is the requests per side that would catch a regression of twice
// the tolerance with 80% power: n requests per side measured a test whose
// standardized statistic moves by h/se for a slowdown e^h (se, testSE), so
// the target's margin beyond the tolerance, log(1+2·tol) − log(1+tol),
// must reach z standard errors. At least minN; 0 when min_delta makes the
// target unreachable (base·2·tol ≤ minDelta) or se is unknown.
func detectN(n int, se, base, minDelta float64, minN int, z float64, tol float64) int {
	target := 2 * tol
	if !(base > 0 && target*base > minDelta) || !(se > 0) || n <= 0 {
		return 0
	}
	return max(minN, scaleN(n, z*se/(math.Log1p(target)-math.Log1p(tol))))
}

// boundN is the requests per side at which a no_regression_shown check's
// interval would end within the tolerance, if its change were the one
// observed: the interval's upper half-width (on the log scale) shrinks as
// 1/√n until it fits between the estimate and the tolerance. 0 when the
// estimate itself is beyond the tolerance (more requests would show a
// regression, not bound it) or there is no interval.
func boundN(c *Check, cfg Config) int {
	n := min(c.NBase, c.NCurrent)
	d, hi := c.DeltaPct/100, c.CIPct[1]/100
	if c.Metric.IsRate() {
		return rateBoundN(c, cfg)
	}
	if n == 0 || math.IsNaN(d) || math.IsNaN(hi) || d >= cfg.Tolerance || hi <= d {
		return 0
	}
	w := math.Log1p(hi) - math.Log1p(d)
	return scaleN(n, w/(math.Log1p(cfg.Tolerance)-math.Log1p(d)))
}

// rateBoundN is boundN of a rate: the fewest requests per side at which
// the rate's interval (Newcombe's, at the shares measured) would end within
// its margin. A share's interval does not shrink as 1/√n near 0 (without a
// failure its width goes as 1/n), so the interval itself is searched, not
// scaled. 0 when the estimate is beyond the margin, or no count bounds it.
func rateBoundN(c *Check, cfg Config) int {
	n := min(c.NBase, c.NCurrent)
	margin := rateMargin(c.Metric, c.Baseline, cfg.Tolerance)
	worse := func(k int) float64 {
		ci := newcombe(c.Baseline, k, c.Current, k, cfg.ciAlpha)
		if c.Metric.HigherIsBetter() {
			return -ci[0]
		}
		return ci[1]
	}
	diff := c.Current - c.Baseline
	if c.Metric.HigherIsBetter() {
		diff = -diff
	}
	if n == 0 || math.IsNaN(diff) || diff >= margin || worse(1000000) > margin {
		return 0
	}
	lo, hi := n, 1000000 // worse(hi) ≤ margin
	for lo < hi {
		mid := lo + (hi-lo)/2
		if worse(mid) <= margin {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// noiseBoundN is the requests per side at which the check's interval,
// centred on no change, would fit within the tolerance: its upper
// half-width on the log scale shrinks as 1/√n. A check that cannot be
// bounded even then tests nothing a pass could claim. 0 without an
// interval.
func noiseBoundN(c *Check, cfg Config) int {
	n := min(c.NBase, c.NCurrent)
	d, hi := c.DeltaPct/100, c.CIPct[1]/100
	if n == 0 || math.IsNaN(d) || math.IsNaN(hi) || hi <= d {
		return 0
	}
	return scaleN(n, (math.Log1p(hi)-math.Log1p(d))/math.Log1p(cfg.Tolerance))
}

// neededN is a rough guide to the requests per side that would make an
// inconclusive regression of the observed size significant after the
// correction with 80% power. RawP is the one-sided p-value of the
// minimum-effect test ("worse by at most the tolerance") at n per side, so
// its normal score zObs estimates how far beyond the tolerance the effect
// lies in standard errors; the score grows with √n. It assumes the
// observed effect is the true one; since a check only gets here when its
// estimate is beyond the tolerance, the observed effect is biased upwards
// and the estimate is optimistic (docs/statistics.md measures by how
// much). No estimate when the test points the other way (RawP ≥ 0.5).
func neededN(c *Check, alpha float64, tested int) int {
	n := min(c.NBase, c.NCurrent)
	if n == 0 || math.IsNaN(c.RawP) || c.RawP >= 0.5 {
		return 0
	}
	zObs := stats.NormPpf(1-c.RawP, 0, 1)
	return scaleN(n, detectZ(alpha, tested)/zObs)
}

// atMax is what a check's run could test even at its most requests
// (Sample.Max: an adaptive scenario's max): need is 0 when it could, else
// the requests per side that would test it (NeedN), and detect the A/A
// table's figure (DetectN).
type atMax struct{ need, detect int }

// untestableAtMax finds, before any permutation is drawn, the latency
// checks whose run could not test them even at its most requests: a
// check whose test could not catch a regression of twice the tolerance
// there (detectN, the figure an A/A run's table gives, at the level the
// run's most requests are tested at: an interim look's is stricter), or
// whose interval could not bound an unchanged statistic within the
// tolerance there (noiseBoundN). Neither depends on a p-value, so a
// check found here needs no settled raw p-value (settledAll): it is not
// tested unless its test shows a regression. tested is the size of the
// suite's family. Checks already bounded, or whose interval shows them
// worse (its lower end above no change: evidence, not noise), are left
// out.
func untestableAtMax(res *Result, runs []Pair, of []int, cfg Config, tested int) []atMax {
	out := make([]atMax, len(res.Checks))
	ses := map[int]map[statKey]float64{}
	for i := range res.Checks {
		c := &res.Checks[i]
		if c.Status != "" || c.Metric.IsRate() || bounded(c, cfg) || shownWorse(c) {
			continue
		}
		r := runs[of[i]]
		most := min(r.Base.most(), r.Head.most())
		if _, ok := ses[of[i]]; !ok {
			ses[of[i]] = testSE(r, cfg)
		}
		se, ok := ses[of[i]][statKey{c.Metric, c.Stat, c.Stratum}]
		if !ok {
			continue
		}
		st, _ := statDefOf(c.Stat)
		// A stratum's figures are in its requests; the run's are larger.
		detect := c.runRequests(detectN(min(c.NBase, c.NCurrent), se, c.Baseline, c.MinDelta, st.minN(), detectZ(cfg.testAlpha, tested), cfg.Tolerance))
		if need := max(detect, c.runRequests(noiseBoundN(c, cfg))); need > most {
			out[i] = atMax{need: need, detect: detect}
		}
	}
	return out
}

// testable marks not_tested, among the checks that showed no regression
// (no_regression_shown, or inconclusive: significant alone, not after the
// correction), those whose run could not test them even at its most
// requests (untestableAtMax). A relative P95 at a pull request's size,
// whose interval spans ±50%, tests nothing: saying "no regression shown"
// of it would ask reviewers to weigh what cannot be weighed, and an
// inconclusive ⚠️ on it is no warning a rerun of this size settles. NeedN
// is then the larger of the two figures. A rate (errors, goodput) whose
// interval could not be bounded within its margin even at the run's most
// requests (NeedN, boundN, beyond it) is not tested either: at a pull
// request's size a failure rate is bounded within one point only after
// some 400 requests per side without a failure, while its test still
// catches the jumps that matter (0% → 5% failing at 300); an inconclusive
// rate stays one (a jump in failures is evidence at any size). A
// regression such a run shows anyway stays one. of maps each check to its
// run.
func testable(res *Result, runs []Pair, of []int, at []atMax) {
	for i := range res.Checks {
		c := &res.Checks[i]
		if c.Metric.IsRate() {
			r := runs[of[i]]
			if c.Status == vocab.NoRegressionShown && !shownWorse(c) && c.NeedN > min(r.Base.most(), r.Head.most()) {
				c.Status, c.Reason = vocab.NotTested, vocab.Underpowered
			}
			continue
		}
		if (c.Status == vocab.NoRegressionShown || c.Status == vocab.Inconclusive) && at[i].need > 0 {
			c.Status, c.Reason, c.NeedN, c.DetectN = vocab.NotTested, vocab.Underpowered, at[i].need, at[i].detect
		}
	}
}

// shownWorse reports whether a check's interval lies wholly on the worse
// side of no change.
func shownWorse(c *Check) bool {
	switch {
	case c.Metric == vocab.Errors:
		return c.CIPoints[0] > 0
	case c.Metric.HigherIsBetter():
		return c.CIPoints[1] < 0
	}
	return c.CIPct[0] > 0
}

// statDefOf is the definition of statistic st.
func statDefOf(st vocab.Stat) (statDef, bool) {
	for _, d := range statDefs {
		if d.name == st {
			return d, true
		}
	}
	return statDef{}, false
}

// newcombe is the 1−alpha interval of the difference of two proportions,
// cur − base (each a share of n requests), by Newcombe's hybrid score
// method (his method 10: Wilson intervals of each side combined), which
// keeps its coverage where the normal interval fails: no failures on
// either side, or a few. NaN without requests on a side.
func newcombe(base float64, nb int, cur float64, nc int, alpha float64) [2]float64 {
	if nb == 0 || nc == 0 || math.IsNaN(base) || math.IsNaN(cur) {
		return nan2
	}
	z := stats.NormPpf(1-alpha/2, 0, 1)
	lb, ub := wilson(base, nb, z)
	lc, uc := wilson(cur, nc, z)
	d := cur - base
	return [2]float64{d - math.Hypot(cur-lc, ub-base), d + math.Hypot(uc-cur, base-lb)}
}

// wilson is the Wilson score interval of a proportion p of n at normal
// score z.
func wilson(p float64, n int, z float64) (lo, hi float64) {
	fn := float64(n)
	den := 1 + z*z/fn
	centre := (p + z*z/(2*fn)) / den
	half := z * math.Sqrt(p*(1-p)/fn+z*z/(4*fn*fn)) / den
	return math.Max(0, centre-half), math.Min(1, centre+half)
}
