// Package compare decides, for every (endpoint, scenario) of a suite and
// every metric and statistic, whether current latency differs from the
// baseline: samples and thresholds in, checks and a verdict out. It does no
// I/O, reads no clock and is deterministic: the same samples give the same
// verdict (every random draw comes from a fixed seed).
//
// # Assumptions
//
// Requests within a run are exchangeable (independent draws from the run's
// latency distribution). Latency is heavy-tailed and noisy, so no method
// here assumes normality or compares means:
//
//   - p50: Mann-Whitney U (as the difference of mean ranks), a rank test of
//     location shift.
//   - p95 and p99: tail exceedance: how much more of the current sample than
//     of the baseline lies above the baseline's own p95 (p99), with the
//     threshold recomputed in every permutation. A change in how often the
//     tail happens (queueing spikes) moves this count even when the median
//     does not, and it stays powerful where the density is low.
//   - errors: the difference of failure rates under the same permutations,
//     which is Fisher's exact test conditional on the total failures.
//     Failed requests stay in the sample for this check; latency checks use
//     successful requests only.
//
// The regression tests of the whole suite form one family and the
// improvement tests another. The multiple-comparison correction is
// Westfall–Young single-step maxT over B joint permutations
// (each run's requests are permuted as whole records, so the strong
// correlation between ttft, ttfc, total and perceived is kept and the
// correction is far less conservative than Holm), which controls the
// family-wise error rate of each at Alpha. It is the maxT form: each test's
// statistic is standardized by its own permutation distribution, and a
// check's adjusted p-value is the share of permutations whose largest
// standardized statistic reaches the check's.
//
// A check is a regression only when we are confident the current run is
// worse by more than Tolerance: each test's null hypothesis is "worse by at
// most Tolerance" (the current sample is scaled by 1/(1+Tolerance) before
// permuting; by 1/(1-Tolerance) for improvements), its adjusted p-value is
// at most Alpha, and the point estimate exceeds both Tolerance and MinDelta
// (for itl and tpot MinDelta is spread over the response's events). A change beyond
// both thresholds without significance is inconclusive, with an estimate of
// the requests per side that would decide it. p95 needs MinN(0.95) = 40
// requests per side and p99 needs 500 (p99 checks appear only then).
//
// # Measured error rates
//
// From `make calibrate` (docs/statistics.md): a suite of two scenarios (26
// checks) with realistic latency (log-normal body, 5% queueing spikes),
// alpha 0.05, tolerance 10%, min_delta 25ms, 1000 permutations, 500 pairs
// per cell. False alarms on unchanged latency, whole suite: 0.6%, 0.0%,
// 0.4%, 0.0%, 0.6% at n = 20, 50, 100, 200, 300 per side, against 33–42%
// for the naive "TTFT p95 +10%" rule. Power: a +30% slowdown 99.8% at
// n = 50; a tail-only regression (spike rate 5% → 15%) 75% at n = 300 (78%
// in a one-scenario suite, 93% at n = 500), short of 90% at n = 300: see
// docs/statistics.md for why.
//
// The package does not know about files, endpoints' configuration or
// rendering.
package compare

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"gonum.org/v1/gonum/stat/distuv"
)

// Metrics in check order; "errors" is the failure rate.
var Metrics = []string{"ttft", "ttfc", "itl", "tpot", "total", "perceived"}

// Status of one check (SPEC §6).
type Status string

const (
	Regression   Status = "regression"
	Improvement  Status = "improvement"
	OK           Status = "ok"
	Inconclusive Status = "inconclusive"
	OverBudget   Status = "over_budget"
	NoBaseline   Status = "no_baseline"
)

// Sample is one side of a run: one entry per request, failures included.
type Sample struct {
	OK []bool
	// Values maps a metric to one value per request, in seconds (aligned
	// with OK; NaN for failed requests or values not observed).
	Values map[string][]float64
	// Events is the typical (median) number of output events per request;
	// per-token metrics (itl, tpot) scale MinDelta by it. 0 means 1.
	Events float64
}

// N is the number of requests, failures included.
func (s *Sample) N() int { return len(s.OK) }

// Run pairs a baseline and a current sample of one (endpoint, scenario).
// Base is nil for a new scenario.
type Run struct {
	Endpoint, Scenario string
	Base, Current      *Sample
}

// Budget is an absolute limit on a statistic (seconds, or a fraction for
// errors/rate).
type Budget struct {
	Metric, Stat string
	Value        float64
}

// Config holds the thresholds.
type Config struct {
	Tolerance    float64 // relative, e.g. 0.10
	MinDelta     float64 // seconds
	Alpha        float64 // family-wise
	FailOn       []Status
	Budgets      []Budget
	Permutations int    // default 2000
	Bootstrap    int    // resamples for change CIs; default 1000, <0 disables
	Seed         uint64 // default 1
}

// Check is one (run, metric, statistic) comparison.
type Check struct {
	Endpoint, Scenario string
	Metric, Stat       string
	Baseline, Current  float64    // seconds (or fraction for errors); NaN if none
	CurrentCI          [2]float64 // distribution-free CI of Current; NaN if n too small
	DeltaPct           float64    // NaN if not comparable
	CIPct              [2]float64 // bootstrap CI of DeltaPct; NaN if not computed
	PValue             float64    // family-wise adjusted; NaN if not tested
	RawP               float64    // unadjusted permutation p-value
	Budget             float64    // NaN if none
	MinDelta           float64    // the absolute threshold applied (seconds)
	NBase, NCurrent    int
	Status             Status
	NeedN              int    // for inconclusive: requests per side that would decide it (0 = unknown)
	Note               string // why inconclusive, etc.
}

// Result is the outcome of a comparison.
type Result struct {
	Verdict  string // "pass" or "fail"
	Checks   []Check
	Warnings []string
	Tested   int // checks in the multiple-comparison family
}

// MinN is the number of requests per side needed to test the q-quantile:
// at least 10, two expected observations above it for p95 (40), and five
// for p99 (500). With fewer, the p99 exceedance count is so discrete that
// its permutation distribution has a heavy right tail, which raises the
// family's maxT threshold and weakens every other check (measured: p99
// checks at n = 300 cut tail-regression detection from 75% to 64%).
func MinN(q float64) int {
	k := 2.0
	if q > 0.95 {
		k = 5
	}
	return max(10, int(math.Ceil(k/(1-q)-1e-9)))
}

var stats = []struct {
	name string
	q    float64
}{{"p50", 0.5}, {"p95", 0.95}, {"p99", 0.99}}

func (c *Config) defaults() {
	if c.Permutations <= 0 {
		c.Permutations = 2000
	}
	if c.Bootstrap == 0 {
		c.Bootstrap = 1000
	}
	if c.Seed == 0 {
		c.Seed = 1
	}
	if c.Alpha <= 0 {
		c.Alpha = 0.05
	}
	if c.FailOn == nil {
		c.FailOn = []Status{Regression, OverBudget}
	}
}

// unit is one request as a whole record, so permutations keep the
// correlation between a request's metrics.
type unit struct {
	ok bool
	v  []float64 // per metric index, NaN if missing
}

// testDef is one one-sided test of a check: dir +1 tests "worse by more
// than the tolerance", dir -1 "better by more than the tolerance".
type testDef struct {
	check  int // index into Result.Checks
	metric int // index into Metrics; -1 for errors
	q      float64
	dir    int
}

// runTests holds a run's data twice, with the current sample scaled for
// each direction's minimum-effect null hypothesis, and its tests.
type runTests struct {
	worse, better *runData
	tests         []testDef
}

type runData struct {
	units []unit
	nb    int         // units[:nb] are the baseline
	order [][]int     // per metric: units with a value, sorted by value
	rank  [][]float64 // per metric: mid-rank of each unit (NaN if missing)
}

// value is test t's statistic for the labelling cur, oriented so that
// larger is more extreme in the test's direction.
func (rt *runTests) value(t testDef, cur []bool) float64 {
	d := rt.worse
	if t.dir < 0 {
		d = rt.better
	}
	return float64(t.dir) * d.statistic(t, cur)
}

// Compare runs every check of the suite.
func Compare(runs []Run, cfg Config) Result {
	cfg.defaults()
	var res Result
	var data []*runTests
	for _, r := range runs {
		if r.Current == nil {
			res.Warnings = append(res.Warnings, fmt.Sprintf("%s / %s: in the baseline but not measured now (removed?)", r.Endpoint, r.Scenario))
			continue
		}
		d := addChecks(&res, r, cfg)
		if d != nil && len(d.tests) > 0 {
			data = append(data, d)
		}
	}
	westfallYoung(&res, data, cfg)
	for i := range res.Checks {
		decide(&res.Checks[i], cfg, res.Tested)
	}
	res.Verdict = "pass"
	for _, c := range res.Checks {
		for _, f := range cfg.FailOn {
			if c.Status == f {
				res.Verdict = "fail"
			}
		}
	}
	return res
}

func budgetFor(cfg Config, metric, stat string) float64 {
	for _, b := range cfg.Budgets {
		if b.Metric == metric && b.Stat == stat {
			return b.Value
		}
	}
	return math.NaN()
}

func hasBudget(cfg Config, metric, stat string) bool {
	return !math.IsNaN(budgetFor(cfg, metric, stat))
}

func okValues(s *Sample, metric string) []float64 {
	if s == nil {
		return nil
	}
	var out []float64
	for i, v := range s.Values[metric] {
		if i < len(s.OK) && s.OK[i] && !math.IsNaN(v) {
			out = append(out, v)
		}
	}
	sort.Float64s(out)
	return out
}

func failRate(s *Sample) (float64, int) {
	if s == nil || s.N() == 0 {
		return math.NaN(), 0
	}
	f := 0
	for _, ok := range s.OK {
		if !ok {
			f++
		}
	}
	return float64(f) / float64(s.N()), s.N()
}

// addChecks appends the run's checks and returns its permutation data.
func addChecks(res *Result, r Run, cfg Config) *runTests {
	var d *runTests
	if r.Base != nil {
		d = &runTests{worse: newRunData(r.Base, r.Current, 1/(1+cfg.Tolerance))}
		if cfg.Tolerance < 1 {
			d.better = newRunData(r.Base, r.Current, 1/(1-cfg.Tolerance))
		}
	}
	addTests := func(check, metric int, q float64) {
		d.tests = append(d.tests, testDef{check: check, metric: metric, q: q, dir: 1})
		if d.better != nil {
			d.tests = append(d.tests, testDef{check: check, metric: metric, q: q, dir: -1})
		}
	}
	seed := cfg.Seed ^ hash(r.Endpoint+"\x00"+r.Scenario)
	for mi, m := range Metrics {
		bv, cv := okValues(r.Base, m), okValues(r.Current, m)
		if len(cv) == 0 && len(bv) == 0 {
			continue // metric not observed in this run (e.g. ttfc for tool calls)
		}
		for _, st := range stats {
			minN := MinN(st.q)
			if st.q == 0.99 && (len(cv) < minN || (r.Base != nil && len(bv) < minN)) && !hasBudget(cfg, m, st.name) {
				continue // p99 only when n allows (or when budgeted)
			}
			c := Check{
				Endpoint: r.Endpoint, Scenario: r.Scenario, Metric: m, Stat: st.name,
				Baseline: Quantile(bv, st.q), Current: Quantile(cv, st.q),
				CurrentCI: QuantileCI(cv, st.q, cfg.Alpha),
				DeltaPct:  math.NaN(), CIPct: [2]float64{math.NaN(), math.NaN()},
				PValue: math.NaN(), RawP: math.NaN(),
				Budget: budgetFor(cfg, m, st.name), NBase: len(bv), NCurrent: len(cv),
				MinDelta: minDelta(cfg, m, r.Current),
			}
			switch {
			case r.Base == nil:
				c.Status = NoBaseline
			case len(bv) < minN || len(cv) < minN:
				c.Status = Inconclusive
				c.NeedN = minN
				c.Note = fmt.Sprintf("need %d successful requests per side to test %s (have %d and %d)", minN, st.name, len(bv), len(cv))
			default:
				c.DeltaPct = pct(c.Current, c.Baseline)
				if cfg.Bootstrap > 0 {
					c.CIPct = bootstrapCI(bv, cv, st.q, cfg.Bootstrap, cfg.Alpha, seed+uint64(len(res.Checks)))
				}
				addTests(len(res.Checks), mi, st.q)
			}
			res.Checks = append(res.Checks, c)
		}
	}
	// Error rate.
	br, bn := failRate(r.Base)
	cr, cn := failRate(r.Current)
	c := Check{
		Endpoint: r.Endpoint, Scenario: r.Scenario, Metric: "errors", Stat: "rate",
		Baseline: br, Current: cr, CurrentCI: [2]float64{math.NaN(), math.NaN()},
		DeltaPct: math.NaN(), CIPct: [2]float64{math.NaN(), math.NaN()},
		PValue: math.NaN(), RawP: math.NaN(),
		Budget: budgetFor(cfg, "errors", "rate"), NBase: bn, NCurrent: cn,
	}
	if r.Base == nil {
		c.Status = NoBaseline
	} else {
		if br > 0 {
			c.DeltaPct = pct(cr, br)
		}
		addTests(len(res.Checks), -1, 0)
	}
	res.Checks = append(res.Checks, c)
	return d
}

// minDelta is the absolute threshold for a metric: MinDelta for whole-request
// metrics; for per-token metrics (itl, tpot) MinDelta spread over the
// response's events, so the change must add up to MinDelta per response.
func minDelta(cfg Config, metric string, cur *Sample) float64 {
	if metric != "itl" && metric != "tpot" {
		return cfg.MinDelta
	}
	ev := 1.0
	if cur != nil && cur.Events > 1 {
		ev = cur.Events - 1
	}
	return cfg.MinDelta / ev
}

func pct(cur, base float64) float64 {
	if base <= 0 || math.IsNaN(base) || math.IsNaN(cur) {
		return math.NaN()
	}
	return (cur/base - 1) * 100
}

// newRunData pools base and current requests, the current values
// multiplied by scale: testing "no difference" on the scaled data tests
// "a difference of exactly the tolerance" on the real data.
func newRunData(base, cur *Sample, scale float64) *runData {
	d := &runData{nb: base.N()}
	add := func(s *Sample, scale float64) {
		for i := range s.OK {
			u := unit{ok: s.OK[i], v: make([]float64, len(Metrics))}
			for mi, m := range Metrics {
				u.v[mi] = math.NaN()
				if vals := s.Values[m]; i < len(vals) && s.OK[i] {
					u.v[mi] = vals[i] * scale
				}
			}
			d.units = append(d.units, u)
		}
	}
	add(base, 1)
	add(cur, scale)
	d.order = make([][]int, len(Metrics))
	d.rank = make([][]float64, len(Metrics))
	for mi := range Metrics {
		var idx []int
		for i, u := range d.units {
			if !math.IsNaN(u.v[mi]) {
				idx = append(idx, i)
			}
		}
		sort.SliceStable(idx, func(a, b int) bool { return d.units[idx[a]].v[mi] < d.units[idx[b]].v[mi] })
		d.order[mi] = idx
		rk := make([]float64, len(d.units))
		for i := range rk {
			rk[i] = math.NaN()
		}
		for i := 0; i < len(idx); {
			j := i
			for j+1 < len(idx) && d.units[idx[j+1]].v[mi] == d.units[idx[i]].v[mi] {
				j++
			}
			mid := float64(i+j)/2 + 1
			for k := i; k <= j; k++ {
				rk[idx[k]] = mid
			}
			i = j + 1
		}
		d.rank[mi] = rk
	}
	return d
}

// statistic computes test t for the labelling cur (true = current).
func (d *runData) statistic(t testDef, cur []bool) float64 {
	if t.metric < 0 {
		var fb, nb, fc, nc float64
		for i, u := range d.units {
			if cur[i] {
				nc++
				if !u.ok {
					fc++
				}
			} else {
				nb++
				if !u.ok {
					fb++
				}
			}
		}
		return fc/nc - fb/nb
	}
	if t.q == 0.5 {
		// Mann-Whitney U as the difference of mean ranks, scaled by N.
		var sc, sb, nc, nb float64
		for _, i := range d.order[t.metric] {
			if cur[i] {
				sc += d.rank[t.metric][i]
				nc++
			} else {
				sb += d.rank[t.metric][i]
				nb++
			}
		}
		if nc == 0 || nb == 0 {
			return 0
		}
		return (sc/nc - sb/nb) / (nc + nb)
	}
	// Tail exceedance: how much more of the current side than of the
	// baseline side lies above the baseline's own q-quantile, recomputed
	// for every permutation from that permutation's baseline group.
	order := d.order[t.metric]
	nc := 0
	for _, i := range order {
		if cur[i] {
			nc++
		}
	}
	nb := len(order) - nc
	if nc < 2 || nb < 2 {
		return 0
	}
	tau := groupQuantile(d, order, cur, false, nb, t)
	var ec, eb float64
	for _, i := range order {
		if d.units[i].v[t.metric] > tau {
			if cur[i] {
				ec++
			} else {
				eb++
			}
		}
	}
	return ec/float64(nc) - eb/float64(nb)
}

// groupQuantile is the type-7 q-quantile of one side (cur[i] == side) of
// the pooled order, found by walking it once.
func groupQuantile(d *runData, order []int, cur []bool, side bool, n int, t testDef) float64 {
	h := t.q * float64(n-1)
	lo := int(math.Floor(h))
	frac := h - float64(lo)
	pos := 0
	var vlo float64
	for _, i := range order {
		if cur[i] != side {
			continue
		}
		if pos == lo {
			vlo = d.units[i].v[t.metric]
			if frac == 0 || lo == n-1 {
				return vlo
			}
		}
		if pos == lo+1 {
			return vlo + frac*(d.units[i].v[t.metric]-vlo)
		}
		pos++
	}
	return vlo
}

// westfallYoung fills RawP and PValue of every tested check: single-step
// maxT over all one-sided tests of the suite, each run's request labels
// permuted jointly for all its tests.
func westfallYoung(res *Result, data []*runTests, cfg Config) {
	var k int
	for _, d := range data {
		k += len(d.tests)
	}
	if k == 0 {
		return
	}
	B := cfg.Permutations
	obs := make([]float64, 0, k)
	perm := make([][]float64, 0, k) // per test: its statistic under each permutation
	for ri, d := range data {
		n := len(d.worse.units)
		labels := make([]bool, n)
		for i := d.worse.nb; i < n; i++ {
			labels[i] = true
		}
		for _, t := range d.tests {
			obs = append(obs, d.value(t, labels))
		}
		first := len(perm)
		for range d.tests {
			perm = append(perm, make([]float64, B))
		}
		rng := rand.New(rand.NewPCG(cfg.Seed, uint64(ri)))
		shuffled := append([]bool(nil), labels...)
		for b := 0; b < B; b++ {
			rng.Shuffle(n, func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
			for ti, t := range d.tests {
				perm[first+ti][b] = d.value(t, shuffled)
			}
		}
	}
	// Raw p-values, and each permutation's largest standardized statistic
	// across the family (maxT): each test is standardized by the mean and
	// SD of its own permutation distribution, so an observation far beyond
	// anything the permutations produced gets a small adjusted p-value
	// however fine the permutation grid.
	// One family per direction: the gate fails on regressions only, so
	// false regression claims are held to alpha among the regression
	// tests, and false improvement claims among the improvement tests.
	maxZ := map[int][]float64{1: make([]float64, B), -1: make([]float64, B)}
	for _, m := range maxZ {
		for b := range m {
			m[b] = math.Inf(-1)
		}
	}
	dirs := make([]int, 0, k)
	for _, d := range data {
		for _, t := range d.tests {
			dirs = append(dirs, t.dir)
		}
	}
	raw := make([]float64, k)
	zObs := make([]float64, k)
	for ti := range perm {
		col := perm[ti]
		geq := 0
		var mean, sq float64
		for _, v := range col {
			if v >= obs[ti]-1e-12*math.Max(1, math.Abs(obs[ti])) {
				geq++
			}
			mean += v
		}
		mean /= float64(B)
		for _, v := range col {
			sq += (v - mean) * (v - mean)
		}
		sd := math.Sqrt(sq / float64(B))
		raw[ti] = float64(1+geq) / float64(B+1)
		z := func(v float64) float64 {
			if sd == 0 {
				return 0
			}
			return (v - mean) / sd
		}
		zObs[ti] = z(obs[ti])
		if sd == 0 {
			zObs[ti] = math.Inf(-1) // a degenerate test can never be significant
		}
		mz := maxZ[dirs[ti]]
		for b, v := range col {
			mz[b] = math.Max(mz[b], z(v))
		}
	}
	for _, m := range maxZ {
		sort.Float64s(m)
	}
	ti := 0
	tested := map[int]bool{}
	for _, d := range data {
		for _, t := range d.tests {
			c := &res.Checks[t.check]
			tested[t.check] = true
			atLeast := B - sort.SearchFloat64s(maxZ[t.dir], zObs[ti]-1e-12)
			adj := math.Min(1, float64(1+atLeast)/float64(B+1))
			// Keep the direction the point estimate points to.
			if wantWorse := c.Current >= c.Baseline; (t.dir > 0) == wantWorse {
				c.RawP, c.PValue = raw[ti], adj
			}
			ti++
		}
	}
	res.Tested = len(tested)
}

// decide sets a check's status from its estimates, p-value and thresholds.
func decide(c *Check, cfg Config, tested int) {
	if !math.IsNaN(c.Budget) && !math.IsNaN(c.Current) && c.Current > c.Budget {
		c.Status = OverBudget
		return
	}
	if c.Status != "" { // no_baseline or not testable
		return
	}
	var practical, worse bool
	if c.Metric == "errors" {
		// A rise must be at least one percentage point and Tolerance of
		// the baseline rate.
		diff := c.Current - c.Baseline
		practical = math.Abs(diff) >= math.Max(0.01, cfg.Tolerance*c.Baseline)
		worse = diff > 0
	} else {
		diff := c.Current - c.Baseline
		worse = diff > 0
		practical = math.Abs(diff) > c.MinDelta && math.Abs(c.DeltaPct) > cfg.Tolerance*100
	}
	significant := c.PValue <= cfg.Alpha
	switch {
	case practical && significant && worse:
		c.Status = Regression
	case practical && significant:
		c.Status = Improvement
	case practical:
		c.Status = Inconclusive
		c.NeedN = neededN(c, cfg.Alpha, tested)
		if c.NeedN > 0 {
			c.Note = fmt.Sprintf("change beyond tolerance but not significant; about %d requests per side would decide it", c.NeedN)
		} else {
			c.Note = "change beyond tolerance but not significant"
		}
	default:
		c.Status = OK
	}
}

// neededN estimates the requests per side that would make an effect of the
// observed size significant with 80% power after the family-wise correction
// (normal approximation, Bonferroni-sized threshold: a conservative guide).
func neededN(c *Check, alpha float64, tested int) int {
	n := min(c.NBase, c.NCurrent)
	if n == 0 || c.RawP >= 1 || math.IsNaN(c.RawP) {
		return 0
	}
	norm := distuv.UnitNormal
	zObs := norm.Quantile(1 - c.RawP/2)
	if zObs <= 0 {
		return 0
	}
	zCrit := norm.Quantile(1 - alpha/(2*float64(max(tested, 1))))
	need := float64(n) * math.Pow((zCrit+0.8416)/zObs, 2)
	if need > 1e6 {
		return 1000000
	}
	return int(math.Ceil(need))
}

// QuantileCI is a distribution-free confidence interval for the q-quantile
// from the order statistics of sorted (binomial argument), at level 1-alpha.
// NaN bounds when n is too small for that side.
func QuantileCI(sorted []float64, q, alpha float64) [2]float64 {
	n := len(sorted)
	out := [2]float64{math.NaN(), math.NaN()}
	if n == 0 {
		return out
	}
	b := distuv.Binomial{N: float64(n), P: q}
	// P(X_(j) <= Q) = P(Bin >= j) = 1 - CDF(j-1).
	for j := n; j >= 1; j-- {
		if b.CDF(float64(j-1)) <= alpha/2 {
			out[0] = sorted[j-1]
			break
		}
	}
	for j := 1; j <= n; j++ {
		if b.CDF(float64(j-1)) >= 1-alpha/2 {
			out[1] = sorted[j-1]
			break
		}
	}
	return out
}

// bootstrapCI is a seeded percentile bootstrap of the relative change of
// the q-quantile, in percent. Resamples are drawn as counts over the sorted
// samples, so no resample is sorted.
func bootstrapCI(base, cur []float64, q float64, B int, alpha float64, seed uint64) [2]float64 {
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	ratios := make([]float64, 0, B)
	cb, cc := make([]int, len(base)), make([]int, len(cur))
	for range B {
		qb := resampledQuantile(base, cb, q, rng)
		qc := resampledQuantile(cur, cc, q, rng)
		if qb > 0 {
			ratios = append(ratios, (qc/qb-1)*100)
		}
	}
	sort.Float64s(ratios)
	return [2]float64{Quantile(ratios, alpha/2), Quantile(ratios, 1-alpha/2)}
}

func resampledQuantile(sorted []float64, counts []int, q float64, rng *rand.Rand) float64 {
	n := len(sorted)
	for i := range counts {
		counts[i] = 0
	}
	for range n {
		counts[rng.IntN(n)]++
	}
	h := q * float64(n-1)
	lo := int(math.Floor(h))
	frac := h - float64(lo)
	pos := 0
	vlo := math.NaN()
	for i, c := range counts {
		for range c {
			if pos == lo {
				vlo = sorted[i]
				if frac == 0 || lo == n-1 {
					return vlo
				}
			}
			if pos == lo+1 {
				return vlo + frac*(sorted[i]-vlo)
			}
			pos++
		}
	}
	return vlo
}

func hash(s string) uint64 {
	var h uint64 = 14695981039346656037
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}
