package compare

import (
	"github.com/latgate/latgate/vocab"

	"errors"
	"fmt"
	"math"
	"sort"

	"github.com/montanaflynn/stats"
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
	type test struct {
		check int
		p     float64
		dir   int
	}
	var tests []test
	for _, s := range series {
		hist := nonNil(s.History)
		if s.Current == nil {
			res.Warnings = append(res.Warnings, fmt.Sprintf("%s / %s: in the baseline history but not measured now (removed?)", s.Endpoint, s.Scenario))
			continue
		}
		for _, m := range vocab.Latencies {
			cv := okValues(s.Current, m)
			cRobust := chunkedValues(s.Current, m)
			hv := make([][]float64, len(hist))
			hRobust := make([][][]float64, len(hist))
			seen := len(cv) > 0
			for i, h := range hist {
				hv[i] = okValues(h, m)
				hRobust[i] = chunkedValues(h, m)
				seen = seen || len(hv[i]) > 0
			}
			if !seen {
				continue
			}
			for _, st := range statDefs {
				minN := st.minN()
				if st.q == 0.99 && len(cv) < minN && !hasBudget(cfg, m, st.name) {
					continue
				}
				c := Check{
					Endpoint: s.Endpoint, Scenario: s.Scenario, Metric: m, Stat: st.name,
					Baseline: math.NaN(), Current: st.of(cv),
					CurrentCI: [2]float64{math.NaN(), math.NaN()},
					DeltaPct:  math.NaN(), CIPct: [2]float64{math.NaN(), math.NaN()},
					PValue: math.NaN(), RawP: math.NaN(),
					Budget: budgetFor(cfg, m, st.name), NCurrent: len(cv),
					MinDelta: minDelta(cfg, m, s.Current),
				}
				if st.q > 0 {
					c.CurrentCI = QuantileCI(cv, st.q, cfg.Alpha)
				}
				// One log statistic per baseline run with enough requests.
				var xs, whole []float64
				for i, v := range hv {
					if len(v) < minN {
						continue
					}
					if x, w := robustStat(hRobust[i], st), st.of(v); x > 0 && w > 0 {
						xs = append(xs, math.Log(x))
						whole = append(whole, math.Log(w))
						c.NBase += len(v)
					}
				}
				if len(whole) > 0 {
					mw, _ := stats.Mean(whole)
					c.Baseline = math.Exp(mw)
				}
				switch {
				case len(hist) == 0:
					c.Status = vocab.NoBaseline
				case len(cv) < minN:
					c.Status = vocab.Inconclusive
					c.NeedN = minN
					c.Note = fmt.Sprintf("need %d successful requests to test %s (have %d)", minN, st.name, len(cv))
				case len(xs) < 2:
					c.Status = vocab.Inconclusive
					c.Note = fmt.Sprintf("need two baseline runs with %d successful requests to estimate the run-to-run spread of %s (have %d of %d runs)", minN, st.name, len(xs), len(hist))
				case c.Current <= 0 || robustStat(cRobust, st) <= 0:
					c.Status = vocab.Inconclusive
					c.Note = "current value is not positive"
				default:
					c.DeltaPct = pct(c.Current, c.Baseline)
					// The test uses the time-robust run statistic.
					y := math.Log(robustStat(cRobust, st))
					mx, _ := stats.Mean(xs)
					sd, _ := stats.StandardDeviationSample(xs)
					// The interval's width comes from the spread of the
					// test's statistic, centred on the whole run's change.
					h := predictionHalfWidth(xs, y, cfg.Alpha)
					d := math.Log1p(c.DeltaPct / 100)
					c.CIPct = [2]float64{(math.Exp(d-h) - 1) * 100, (math.Exp(d+h) - 1) * 100}
					if sd > math.Log1p(cfg.Tolerance) {
						c.Status = vocab.Inconclusive
						c.Note = fmt.Sprintf("run-to-run spread of %s in the baseline history (±%.0f%%) exceeds the tolerance (%.0f%%): stored baselines cannot tell a change of this size from drift; compare both variants interleaved with `latgate ab`",
							st.name, (math.Exp(sd)-1)*100, cfg.Tolerance*100)
						break
					}
					worse := predictionP(xs, math.Log1p(cfg.Tolerance), y, 1)
					var better float64 = 1
					if cfg.Tolerance < 1 {
						better = predictionP(xs, math.Log1p(-cfg.Tolerance), y, -1)
					}
					if y >= mx {
						c.RawP = worse
					} else {
						c.RawP = better
					}
					tests = append(tests, test{len(res.Checks), worse, 1}, test{len(res.Checks), better, -1})
				}
				res.Checks = append(res.Checks, c)
			}
		}
		// Error rate against the pooled history rate.
		var f, n int
		for _, h := range hist {
			r, hn := failRate(h)
			f += int(math.Round(r * float64(hn)))
			n += hn
		}
		cr, cn := failRate(s.Current)
		c := Check{
			Endpoint: s.Endpoint, Scenario: s.Scenario, Metric: "errors", Stat: "rate",
			Baseline: math.NaN(), Current: cr, CurrentCI: [2]float64{math.NaN(), math.NaN()},
			DeltaPct: math.NaN(), CIPct: [2]float64{math.NaN(), math.NaN()},
			PValue: math.NaN(), RawP: math.NaN(),
			Budget: budgetFor(cfg, "errors", "rate"), NBase: n, NCurrent: cn,
		}
		if n == 0 || cn == 0 {
			c.Status = vocab.NoBaseline
		} else {
			br := float64(f) / float64(n)
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
			if cr >= br {
				c.RawP = worse
			} else {
				c.RawP = better
			}
			tests = append(tests, test{len(res.Checks), worse, 1}, test{len(res.Checks), better, -1})
		}
		res.Checks = append(res.Checks, c)
	}
	// Holm within each direction's family.
	tested := map[int]bool{}
	for _, dir := range []int{1, -1} {
		var fam []test
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
	res.Tested = len(tested)
	for i := range res.Checks {
		c := &res.Checks[i]
		if c.Status == "" {
			decide(c, cfg, res.Tested)
			if c.Status == vocab.Inconclusive {
				c.NeedN = 0
				c.Note = "change beyond tolerance but not significant against the run-to-run spread of the baseline history"
			}
		} else {
			overBudget(c)
		}
	}
	res.Verdict = verdict(res.Checks, cfg)
	return res, nil
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
