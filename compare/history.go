package compare

import (
	"errors"
	"fmt"
	"math"
	"sort"

	"github.com/montanaflynn/stats"

	"github.com/latgate/latgate/vocab"
)

// Series is one (endpoint, scenario) across a history of baseline runs and
// the current run.
type Series struct {
	Endpoint, Scenario string
	// History holds one sample per baseline run that measured this
	// scenario (nil entries are skipped).
	History []*Sample
	// Current is nil when the history has the scenario but the current
	// run does not.
	Current *Sample
}

// ErrShortHistory is returned by CompareHistory when no series has two
// baseline runs: run-to-run spread cannot be estimated from one.
var ErrShortHistory = errors.New("a baseline history needs at least two runs")

// CompareHistory compares the current run against a history of k ≥ 2
// baseline runs of the same suite, at the run level: per check, the
// statistic of each baseline run (log scale) gives the run-to-run spread,
// and the current run's statistic is tested against the history's mean
// with a prediction t-test (the current run is one more run, so its
// standard error is the spread × √(1 + 1/k), with k − 1 degrees of
// freedom) under the minimum-effect null "worse by at most Tolerance". The
// regression tests of the suite form one family and the improvement tests
// another, each held to Alpha by Holm's step-down correction (valid under
// any dependence between checks). When the spread itself exceeds the
// tolerance a check is inconclusive, never a regression: the history
// cannot tell a change of that size from drift, and an interleaved A/B run
// can.
//
// The error rate is tested against the pooled history rate (an exact
// binomial test with the same minimum effect as Compare). Budgets and
// no_baseline behave as in Compare. Permutations are not used; Bootstrap
// and Permutations are ignored.
func CompareHistory(series []Series, cfg Config) (Result, error) {
	cfg.defaults()
	longest := 0
	for _, s := range series {
		longest = max(longest, len(nonNil(s.History)))
	}
	if longest < 2 {
		return Result{}, fmt.Errorf("%w (have %d)", ErrShortHistory, longest)
	}
	var res Result
	var tests []historyTest
	for _, s := range series {
		if s.Current == nil {
			continue // removed: the report says so from the pairs
		}
		hist := nonNil(s.History)
		for _, m := range vocab.PerRequest {
			tests = append(tests, historyLatencyChecks(&res, s, hist, m, cfg)...)
		}
		tests = append(tests, historyErrorCheck(&res, s, hist, cfg)...)
	}
	res.Tested = holm(&res, tests)
	for i := range res.Checks {
		c := &res.Checks[i]
		if c.Status != "" {
			overBudget(c)
			continue
		}
		decide(c, cfg, res.Tested)
		if c.Status == vocab.NoRegressionShown {
			c.NeedN, c.Reason = 0, vocab.HistoryNotSignificant
		}
	}
	res.Verdict = verdict(res.Checks, cfg)
	return res, nil
}

// historyTest is one direction's run-level test of a check.
type historyTest struct {
	check int
	p     float64
	dir   int
}

// historyLatencyChecks appends the checks of one latency metric of a
// series and returns their tests.
func historyLatencyChecks(res *Result, s Series, hist []*Sample, m vocab.Metric, cfg Config) []historyTest {
	cv := okValues(s.Current, m)
	hv := make([][]float64, len(hist))
	seen := len(cv) > 0
	for i, h := range hist {
		hv[i] = okValues(h, m)
		seen = seen || len(hv[i]) > 0
	}
	if !seen {
		return nil
	}
	var tests []historyTest
	for _, st := range statsOf(m) {
		if skipP99(st, []int{len(cv)}, cfg, m) {
			continue
		}
		c := latencyCheck(s.Endpoint, s.Scenario, m, st, nil, cv, cfg, s.Current)
		xs := historyRuns(&c, hist, hv, m, st)
		switch {
		case len(hist) == 0 && !c.BudgetUntested():
			c.Status = vocab.NoBaseline
		case len(cv) < st.minN():
			untestable(&c, vocab.TooFewCurrent, st.minN())
		case len(xs) < 2:
			untestable(&c, vocab.HistoryTooShort, 0)
		case c.Current <= 0 || robustStat(chunkedValues(s.Current, m), st) <= 0:
			untestable(&c, vocab.NotPositive, 0)
		default:
			tests = append(tests, historyTestOf(&c, len(res.Checks), xs, robustStat(chunkedValues(s.Current, m), st), cfg)...)
		}
		res.Checks = append(res.Checks, c)
	}
	return tests
}

// historyRuns sets the check's baseline from the history (the geometric
// mean of each run's statistic, over the runs with enough requests) and
// returns each such run's time-robust log statistic.
func historyRuns(c *Check, hist []*Sample, hv [][]float64, m vocab.Metric, st statDef) []float64 {
	var xs, whole []float64
	for i, v := range hv {
		if len(v) < st.minN() {
			continue
		}
		if x, w := robustStat(chunkedValues(hist[i], m), st), st.of(v); x > 0 && w > 0 {
			xs = append(xs, math.Log(x))
			whole = append(whole, math.Log(w))
			c.NBase += len(v)
		}
	}
	if len(whole) > 0 {
		mw, _ := stats.Mean(whole)
		c.Baseline = math.Exp(mw)
	}
	c.RunsUsable, c.RunsTotal = len(xs), len(hist)
	return xs
}

// historyTestOf tests the current run's robust statistic cur against the
// history's log statistics xs, in both directions under the minimum-effect
// null; a spread beyond the tolerance leaves the check untested.
func historyTestOf(c *Check, index int, xs []float64, cur float64, cfg Config) []historyTest {
	c.DeltaPct = pct(c.Current, c.Baseline)
	y := math.Log(cur)
	mx, _ := stats.Mean(xs)
	sd, _ := stats.StandardDeviationSample(xs)
	// The interval's width comes from the spread of the test's statistic,
	// centred on the whole run's change.
	h := predictionHalfWidth(xs, y, cfg.ciAlpha)
	d := math.Log1p(c.DeltaPct / 100)
	c.CIPct = [2]float64{(math.Exp(d-h) - 1) * 100, (math.Exp(d+h) - 1) * 100}
	c.Spread = math.Exp(sd) - 1
	if sd > math.Log1p(cfg.Tolerance) {
		untestable(c, vocab.HistorySpread, 0)
		return nil
	}
	worse := predictionP(xs, math.Log1p(cfg.Tolerance), y, 1)
	better := 1.0
	if cfg.Tolerance < 1 {
		better = predictionP(xs, math.Log1p(-cfg.Tolerance), y, -1)
	}
	c.RawP = better
	if y >= mx {
		c.RawP = worse
	}
	return []historyTest{{index, worse, 1}, {index, better, -1}}
}

// historyErrorCheck appends the series' error-rate check, tested against
// the pooled history rate with an exact binomial test and the same
// minimum effect as Compare, and returns its tests.
func historyErrorCheck(res *Result, s Series, hist []*Sample, cfg Config) []historyTest {
	var f, n int
	for _, h := range hist {
		r, hn := failRate(h)
		f += int(math.Round(r * float64(hn)))
		n += hn
	}
	c := errorCheck(Pair{Endpoint: s.Endpoint, Scenario: s.Scenario, Head: s.Current}, cfg)
	c.NBase = n
	index := len(res.Checks)
	defer func() { res.Checks = append(res.Checks, c) }()
	if n == 0 || c.NCurrent == 0 {
		c.Status = vocab.NoBaseline
		return nil
	}
	br, cr, cn := float64(f)/float64(n), c.Current, c.NCurrent
	c.Baseline = br
	if br > 0 {
		c.DeltaPct = pct(cr, br)
	}
	margin := math.Max(0.01, cfg.Tolerance*br)
	fc := int(math.Round(cr * float64(cn)))
	worse := binomialUpper(cn, fc, math.Min(1, br+margin))
	better := 1.0
	if br-margin > 0 {
		better = 1 - binomialUpper(cn, fc+1, br-margin)
	}
	c.RawP = better
	if cr >= br {
		c.RawP = worse
	}
	c.CIPoints = newcombe(br, n, cr, cn, cfg.ciAlpha)
	return []historyTest{{index, worse, 1}, {index, better, -1}}
}

// holm adjusts the p-values of each direction's family with Holm's
// step-down correction and returns the number of tested checks.
func holm(res *Result, tests []historyTest) int {
	tested := map[int]bool{}
	for _, dir := range []int{1, -1} {
		var fam []historyTest
		for _, t := range tests {
			if t.dir == dir {
				fam = append(fam, t)
				tested[t.check] = true
			}
		}
		sort.SliceStable(fam, func(a, b int) bool { return fam[a].p < fam[b].p })
		running := 0.0
		for i, t := range fam {
			running = math.Max(running, math.Min(1, float64(len(fam)-i)*t.p))
			c := &res.Checks[t.check]
			if wantWorse := c.Current >= c.Baseline; (dir > 0) == wantWorse {
				c.PValue = running
			}
		}
	}
	return len(tested)
}

// historyChunks is the number of consecutive slices of a run from whose
// statistics the run-level statistic of a history comparison is taken.
const historyChunks = 5

// chunkedValues splits a sample's successful values of a metric, in
// request order, into historyChunks consecutive slices, each sorted.
func chunkedValues(s *Sample, metric vocab.Metric) [][]float64 {
	var vals []float64
	for i, v := range s.Values[metric] {
		if i < len(s.OK) && s.OK[i] && !math.IsNaN(v) {
			vals = append(vals, v)
		}
	}
	out := make([][]float64, 0, historyChunks)
	for k := range historyChunks {
		c := append([]float64(nil), vals[k*len(vals)/historyChunks:(k+1)*len(vals)/historyChunks]...)
		sort.Float64s(c)
		out = append(out, c)
	}
	return out
}

// robustStat is the run-level statistic of a history comparison: the
// second smallest, over five consecutive slices of the run, of the slice's
// statistic. A slow stretch or a stall confined to a fifth of the run
// inflates at most two slices and so leaves it nearly unmoved (measured:
// false alarms with such a stretch 1.1–1.5% instead of 3–15.5% for the
// whole-run statistic and 1.3–1.7% for the median of the slices); a change
// that lasts the whole run moves every slice. The same statistic is taken
// of every baseline run, so its spread is measured, not assumed.
func robustStat(chunks [][]float64, st statDef) float64 {
	var xs []float64
	for _, c := range chunks {
		if x := st.of(c); !math.IsNaN(x) {
			xs = append(xs, x)
		}
	}
	if len(xs) == 0 {
		return math.NaN()
	}
	sort.Float64s(xs)
	return Quantile(xs, 0.25) // the second smallest of five
}

func nonNil(ss []*Sample) []*Sample {
	var out []*Sample
	for _, s := range ss {
		if s != nil {
			out = append(out, s)
		}
	}
	return out
}

// predictionP is the one-sided p-value of the current log statistic y
// against the history xs shifted by the minimum effect (log(1+tolerance)
// for dir +1, log(1−tolerance) for dir −1): a two-sample t-test of the
// shifted history against the single value y, which is the prediction
// t-test with k − 1 degrees of freedom.
func predictionP(xs []float64, shift, y float64, dir int) float64 {
	shifted := make([]float64, len(xs))
	for i, x := range xs {
		shifted[i] = x + shift
	}
	t, p, err := stats.TTest(shifted, []float64{y}, 0)
	if err != nil {
		// Zero spread: the current value is either beyond the shifted
		// history or not.
		m, _ := stats.Mean(shifted)
		if float64(dir)*(y-m) > 0 {
			return 0
		}
		return 1
	}
	// t = (mean(shifted) − y)/se: negative when y lies above.
	if float64(dir)*t < 0 {
		return p / 2
	}
	return 1 - p/2
}

// predictionHalfWidth is the half-width, on the log scale, of the 1−alpha
// interval for the change from the history's mean to y: the shift at which
// the two-sided prediction t-test's p-value reaches alpha, found by
// bisection.
func predictionHalfWidth(xs []float64, y, alpha float64) float64 {
	mx, _ := stats.Mean(xs)
	d0 := y - mx
	p := func(h float64) float64 {
		shifted := make([]float64, len(xs))
		for i, x := range xs {
			shifted[i] = x + d0 + h
		}
		_, pv, err := stats.TTest(shifted, []float64{y}, 0)
		if err != nil {
			return 0
		}
		return pv
	}
	lo, hi := 0.0, 1.0
	for p(hi) > alpha && hi < 100 {
		hi *= 2
	}
	for range 60 {
		mid := (lo + hi) / 2
		if p(mid) > alpha {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi
}
