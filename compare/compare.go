// Package compare decides, for every (endpoint, scenario) of a suite and
// every metric and statistic, whether current latency differs from the
// baseline: samples and thresholds in, checks and a verdict out. It does no
// I/O, reads no clock and is deterministic: the same samples give the same
// verdict (every random draw comes from a seed derived from the check's
// identity, never from its position in the suite).
//
// Latencies are float64 milliseconds; NaN is the one marker for a missing
// value. The error rate is a fraction.
//
// Three designs are supported:
//
//   - Compare: one baseline run against the current run, request-level
//     permutation tests. When both samples carry block numbers (an
//     interleaved A/B run, both variants measured in the same blocks of
//     time), labels are exchanged only within a block, so drift in time
//     that hits both variants cancels.
//   - CompareHistory: a history of baseline runs against the current run,
//     tested at the run level against the run-to-run spread seen in the
//     history.
//   - Noise: what an A/A comparison says about the suite's sensitivity
//     (noise, smallest detectable regression, requests needed).
//
// # Assumptions
//
// Requests within a run (within a block, for A/B) are exchangeable.
// Latency is heavy-tailed and noisy, so no method here assumes normality.
// Every test is a linear permutation statistic: the sum, over the current
// run's requests, of a score per request fixed by the pooled data (scores.go):
//
//   - p50: mid-ranks (the Wilcoxon rank-sum test, Mann–Whitney U), a rank
//     test of location shift.
//   - p95 and p99: upper-tail ranks rising linearly from the pooled 3q − 2
//     quantile (p85 for p95): how far into the tail the current requests
//     reach, powerful where the density is low.
//   - mean: the share above the pooled mean. In a mix of two latency modes
//     (prompt-cache hits and misses) the mean lies between the modes, so a
//     shift of the mix moves this share strongly while the median and p95
//     barely move.
//   - a count's mean (step_count): the values, a difference of means.
//   - errors (and goodput): failure indicators, the difference of failure
//     rates under the same permutations (Fisher's exact test, conditional
//     on the total failures), the observed difference reduced by a margin
//     (rateMargin: one percentage point, or Tolerance of the baseline's
//     rate) to approximate the minimum-effect null "worse by at most the
//     margin". Failed requests stay in the sample for this check; latency
//     checks use successful requests only.
//
// Under the exchange of labels within strata such a sum has an exact mean
// and variance, so every test is standardized exactly, before any
// permutation is drawn: a test is a function of the data alone, and the
// permutations (seeded by the data, never by names) only estimate its
// p-value.
//
// The regression tests of the whole suite form one family and the
// improvement tests another. The multiple-comparison correction is
// Westfall–Young single-step maxT over B joint permutations
// (each run's requests are permuted as whole records, so the strong
// correlation between ttft, ttfc, total and perceived is kept and the
// correction is far less conservative than Holm), which controls the
// family-wise error rate of each at Alpha. A check's adjusted p-value is
// the share of permutations whose largest standardized statistic reaches
// the check's. Permutations are drawn sequentially: a first batch of 200,
// doubled up to 4·B only while a check whose status depends on its
// p-value is not yet clearly on one side of Alpha (Result.Permutations says
// how many were drawn).
//
// A check is a regression only when we are confident the current run is
// worse by more than Tolerance: each test's null hypothesis is "worse by at
// most Tolerance" (the current sample is scaled by 1/(1+Tolerance) before
// permuting; by 1/(1-Tolerance) for improvements), its adjusted p-value is
// at most Alpha, and the point estimate exceeds both Tolerance and MinDelta
// (for itl and tpot MinDelta is spread over the response's events). A
// change beyond both thresholds without significance is inconclusive, with
// a rough estimate of the requests per side that would decide it. p95 needs
// MinN(0.95) = 40 requests per side and p99 needs 500 (p99 checks appear
// only then).
//
// # Measured error rates
//
// `make calibrate` measures the false-alarm rate and the power of every
// design that ships (stored baseline, interleaved A/B, history, adaptive;
// agents' sessions under the first three);
// docs/statistics.md holds the figures, their commands and their limits,
// in one place, so that they are never stated twice.
//
// The package does not know about files, endpoints' configuration or
// rendering.
package compare

import (
	"math"
	"runtime"
	"slices"
	"sort"
	"sync"

	"github.com/montanaflynn/stats"

	"github.com/latgate/latgate/vocab"
)

// Sample is one side of a run: one entry per request, failures included.
type Sample struct {
	OK []bool
	// Values maps a metric to one value per request, in milliseconds
	// (aligned with OK; NaN for failed requests or values not observed).
	Values map[vocab.Metric][]float64
	// Block is the block number of each request in an interleaved A/B run
	// (aligned with OK); nil when the run was not interleaved. When both
	// samples of a Pair carry blocks, labels are exchanged only within a
	// block.
	Block []int
	// Stratum is, in a run drawn from a trace (Draw not nil), each
	// request's stratum of input length, from 1 (aligned with OK); nil
	// otherwise. When both samples of a Pair come from the same draw,
	// labels are exchanged only within a stratum, and TTFT is checked in
	// each stratum too (strata.go).
	Stratum []int
	// Draw is the run's draw from a trace; nil for written prompts.
	Draw *Draw
	// Events is the typical (median) number of output events per request;
	// per-token metrics (itl, tpot) scale MinDelta by it. 0 means 1.
	Events float64
	// PromptTokens and CachedTokens add up the successful requests' usage
	// (the prompt-cache hit rate is their ratio).
	PromptTokens, CachedTokens int
	// Max is the most requests the side's run could measure (an adaptive
	// scenario's requests.max, a fixed run's count); 0 means N. A check
	// whose test could not catch twice the tolerance even at Max is not
	// tested.
	Max int
}

// N is the number of requests, failures included.
func (s *Sample) N() int { return len(s.OK) }

// most is the most requests the side could measure: Max, or N when the
// sample has more (or Max is not set).
func (s *Sample) most() int {
	if s == nil {
		return 0
	}
	return max(s.Max, s.N())
}

// Pair is the comparison's input for one (endpoint, scenario): the
// baseline sample (or the base variant's; nil for a new scenario) and the
// current one (the head's). The measured runs themselves are results.Run.
type Pair = vocab.Pair[*Sample]

// Budget is an absolute limit on a statistic (milliseconds, or a fraction
// for errors/rate).
type Budget struct {
	Metric vocab.Metric
	Stat   vocab.Stat
	Value  float64
}

// SLO is one per-request objective of goodput: a request is good when it
// succeeded and each SLO metric it observed is at most Max (ms).
type SLO struct {
	Metric vocab.Metric
	Max    float64
}

// Config holds the thresholds.
type Config struct {
	Tolerance float64 // relative, e.g. 0.10
	MinDelta  float64 // milliseconds
	Alpha     float64 // family-wise
	FailOn    []vocab.Status
	Budgets   []Budget
	// Floors are lower limits (goodput/rate, cache_hit_rate/min), fractions.
	Floors []Budget
	// Goodput is the per-request SLO; empty = no goodput check.
	Goodput []SLO
	// Confirm: the judging suite sets regression.confirm, so an A/B
	// file's confirmation runs count (Confirm); without it they are
	// ignored, whatever the file holds.
	Confirm      bool
	Permutations int // default 2000
	// MaxPermutations bounds the drawing for a p-value not yet settled
	// against Alpha; default 4 × Permutations.
	MaxPermutations int
	Bootstrap       int    // resamples for change CIs; default 1000, <0 disables
	Seed            uint64 // default 1
	// ciAlpha is the level of the change intervals (1 − ciAlpha): the
	// suite's alpha, kept when a sequential design tests at a stricter
	// level (default Alpha). An interval says what the data show, at the
	// level the report states, whatever the test's level.
	ciAlpha float64
	// testAlpha is the level at which a run's most requests would be
	// tested (the final comparison's, when an interim look tests at a
	// stricter one): whether a check can be tested at all is judged there
	// (default Alpha).
	testAlpha float64
	// scores selects the latency tests' score functions (zero: those that
	// ship; the calibration's comparison of tests sets others).
	scores scoreSet
}

// Check is one (run, metric, statistic) comparison.
type Check struct {
	Endpoint, Scenario string
	Metric             vocab.Metric
	Stat               vocab.Stat
	// Stratum is, in a run drawn from a trace (results.Workload), the
	// stratum of input length the check is confined to, from 1 (its
	// bounds: the workload's Strata); 0 for a check of every request.
	Stratum           int
	Baseline, Current float64    // milliseconds (or fraction for errors); NaN if none
	CurrentCI         [2]float64 // distribution-free CI of Current; NaN if n too small
	DeltaPct          float64    // NaN if not comparable
	CIPct             [2]float64 // CI of DeltaPct; NaN if not computed
	// CIPoints is, for a rate (errors, goodput), the interval of the
	// difference Current − Baseline (a fraction: Newcombe's hybrid score
	// interval); NaN otherwise.
	CIPoints        [2]float64
	PValue          float64 // family-wise adjusted; NaN if not tested
	RawP            float64 // unadjusted one-sided p-value in the direction of the estimate
	Budget          float64 // NaN if none
	MinDelta        float64 // the absolute threshold applied (milliseconds)
	NBase, NCurrent int
	Status          vocab.Status
	// Reason says why the status is what it is when the status alone does
	// not (inconclusive: too few requests, not significant, …); "" else.
	Reason vocab.Reason
	// NeedN is the requests per side that would decide the check (0 =
	// unknown): for not_tested, those that would test it (the statistic's
	// minimum, or those that would catch twice the tolerance with 80%
	// power, and bound an unchanged statistic within the tolerance: the
	// larger of the two); for no_regression_shown, those that would bound
	// it within the tolerance at its estimate; for inconclusive, those that
	// would make it significant after the correction.
	NeedN int
	// DetectN is, for a latency check not tested because its run is too
	// small (reason underpowered), the requests per side that would catch
	// a regression of twice the tolerance with 80% power: the figure an
	// A/A run's table gives for it (Noise). NeedN is larger when the
	// check's interval needs more to fit within the tolerance.
	DetectN int
	// Bounded: the change's interval lies within the tolerance (or the
	// minimum delta; a rate's within its margin): the data show the check
	// did not regress beyond it. Status within_tolerance, unless the check
	// is over its budget.
	Bounded bool
	// Spread is the run-to-run spread of the statistic in a baseline
	// history (a relative half-width, 0.12 for ±12%); NaN otherwise.
	// RunsUsable of RunsTotal history runs had enough requests for it.
	Spread                float64
	RunsUsable, RunsTotal int
	// Unsettled: after the most permutations the p-value is still within
	// Monte Carlo error of Alpha, so another random stream (another
	// Config.Seed) could give the other status. The p-value itself is
	// the data's alone: names and order never change it.
	Unsettled bool
	// Confirmed: a regression found again by a fresh interleaved run of its
	// scenario (Confirm).
	Confirmed bool
	// Regressed: the change is a regression, also when the check's status
	// is over_budget (a budget breach takes precedence in the status).
	Regressed bool
	// perRun is, for a check of a stratum, the run's requests per request
	// of the stratum (on the side where it is rarer): its NeedN and DetectN
	// count the run's requests (runRequests).
	perRun float64
}

// Result is the outcome of a comparison.
type Result struct {
	Verdict  vocab.Verdict
	Checks   []Check
	Warnings []Warning
	Tested   int // checks in the multiple-comparison family
	// Design is the sequential design an adaptive suite was compared
	// under (CompareSequential); nil for a fixed one.
	Design *Design
	// Permutations is the number of permutations drawn: fewer than
	// Config.Permutations when every status was settled earlier.
	Permutations int
}

// Warning is what the comparison of one (endpoint, scenario) could not do
// as asked.
type Warning struct {
	Kind               vocab.Warning
	Endpoint, Scenario string
	// N is the requests concerned (OneSidedBlocks), or the requests per
	// side of a confirmation run (ConfirmTooFew) and Need those of the run
	// it confirms.
	N, Need int
}

// statDef is one statistic of a latency metric; mean has q < 0.
type statDef struct {
	name vocab.Stat
	q    float64
}

var statDefs = []statDef{{vocab.P50, 0.5}, {vocab.P95, 0.95}, {vocab.P99, 0.99}, {vocab.Mean, -1}}

func (s statDef) minN() int { return s.name.MinN() }

// statsOf are the statistics checked of a per-request metric (the mean
// alone of a count).
func statsOf(m vocab.Metric) []statDef {
	var out []statDef
	for _, st := range statDefs {
		if slices.Contains(m.Stats(), st.name) {
			out = append(out, st)
		}
	}
	return out
}

// of is the statistic of sorted values.
func (s statDef) of(sorted []float64) float64 {
	if s.q < 0 {
		if len(sorted) == 0 {
			return math.NaN()
		}
		m, _ := stats.Mean(sorted)
		return m
	}
	return Quantile(sorted, s.q)
}

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
	if c.ciAlpha <= 0 {
		c.ciAlpha = c.Alpha
	}
	if c.testAlpha <= 0 {
		c.testAlpha = c.Alpha
	}
	if c.FailOn == nil {
		c.FailOn = []vocab.Status{vocab.Regression, vocab.OverBudget}
	}
}

// Compare runs every check of the suite.
func Compare(runs []Pair, cfg Config) Result {
	cfg.defaults()
	var res Result
	var data []*runTests
	var boots []bootJob
	var of []int // per check: its run's index in runs
	for i, r := range runs {
		if r.Head == nil {
			continue // removed: the report says so from the pairs
		}
		d := addChecks(&res, i, r, cfg, &boots)
		if d != nil && len(d.tests) > 0 {
			data = append(data, d)
		}
		for len(of) < len(res.Checks) {
			of = append(of, i)
		}
	}
	intervals(&res, boots, cfg)
	at := untestableAtMax(&res, runs, of, cfg, testedChecks(data))
	westfallYoung(&res, data, cfg, at)
	for i := range res.Checks {
		decide(&res.Checks[i], cfg, res.Tested)
	}
	testable(&res, runs, of, at)
	res.Verdict = verdict(res.Checks, cfg)
	return res
}

// bootJob is one change interval to compute.
type bootJob struct {
	runIndex int // position of the run in the suite
	check    int
	run      Pair
	metric   vocab.Metric
	st       statDef
	blocked  bool
	stratum  int
}

// InParallel calls f(0..n-1) on a fixed pool of GOMAXPROCS workers; each
// f writes only its own results (and draws from its own seeded generator,
// so that results do not depend on the schedule). trend uses it too.
func InParallel(n int, f func(i int)) {
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				f(i)
			}
		}()
	}
	for i := range n {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
}

// verdict is fail when a check's status is in FailOn.
func verdict(checks []Check, cfg Config) vocab.Verdict {
	for _, c := range checks {
		if c.Fails(cfg.FailOn) {
			return vocab.Fail
		}
	}
	return vocab.Pass
}

// Fails reports whether the check fails a gate that fails on failOn: its
// status is listed.
func (c Check) Fails(failOn []vocab.Status) bool {
	return slices.Contains(failOn, c.Status)
}

func floorFor(cfg Config, metric vocab.Metric, stat vocab.Stat) float64 {
	for _, b := range cfg.Floors {
		if b.Metric == metric && b.Stat == stat {
			return b.Value
		}
	}
	return math.NaN()
}

func budgetFor(cfg Config, metric vocab.Metric, stat vocab.Stat) float64 {
	for _, b := range cfg.Budgets {
		if b.Metric == metric && b.Stat == stat {
			return b.Value
		}
	}
	return math.NaN()
}

func hasBudget(cfg Config, metric vocab.Metric, stat vocab.Stat) bool {
	return !math.IsNaN(budgetFor(cfg, metric, stat))
}

func okValues(s *Sample, metric vocab.Metric) []float64 {
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

// blocked reports whether a run is an interleaved A/B run whose samples
// both carry one block number per request.
func blocked(r Pair) bool {
	return r.Base != nil && r.Head != nil && r.Base.Block != nil && r.Head.Block != nil &&
		len(r.Base.Block) == r.Base.N() && len(r.Head.Block) == r.Head.N()
}

// unpairedRequests counts the requests of an interleaved run whose block
// the other side does not have.
func unpairedRequests(r Pair) int {
	on := func(s *Sample) map[int]bool {
		m := map[int]bool{}
		for _, b := range s.Block {
			m[b] = true
		}
		return m
	}
	onBase, onCur := on(r.Base), on(r.Head)
	n := 0
	for _, b := range r.Base.Block {
		if !onCur[b] {
			n++
		}
	}
	for _, b := range r.Head.Block {
		if !onBase[b] {
			n++
		}
	}
	return n
}

// addChecks appends the run's checks and returns its permutation data
// (nil without a baseline).
func addChecks(res *Result, runIndex int, r Pair, cfg Config, boots *[]bootJob) *runTests {
	d := permData(res, r)
	for mi, m := range vocab.PerRequest {
		bv, cv := okValues(r.Base, m), okValues(r.Head, m)
		reported := reporting(r, m, bv, cv)
		if len(cv) == 0 && len(bv) == 0 && !(m.Server() && hasAnyBudget(cfg, m)) {
			continue // metric not observed in this run (e.g. ttft for tool calls)
		}
		for _, st := range statsOf(m) {
			if skipP99(st, sides(r.Base != nil, len(bv), len(cv)), cfg, m) || reported == notReported && len(bv) == 0 && !hasBudget(cfg, m, st.name) {
				continue
			}
			addLatency(res, d, runIndex, r, latencyInput{m: m, mi: mi, st: st, bv: bv, cv: cv, reported: reported}, cfg, boots)
		}
	}
	if d != nil && d.stratified {
		addStratumChecks(res, d, runIndex, r, cfg, boots)
	}
	addRateChecks(res, d, r, cfg)
	return d
}

// latencyInput is what one latency check is built from: metric m (index
// mi in vocab.PerRequest), statistic st, the sorted successful values of
// each side (of stratum k, 0: every request), and the sides' reporting of
// a server stage.
type latencyInput struct {
	m        vocab.Metric
	mi       int
	st       statDef
	bv, cv   []float64
	reported int
	stratum  int
}

// addLatency appends one latency check of run r, registering its
// interval and its tests when both sides can be compared.
func addLatency(res *Result, d *runTests, runIndex int, r Pair, in latencyInput, cfg Config, boots *[]bootJob) {
	m, st, bv, cv := in.m, in.st, in.bv, in.cv
	c := latencyCheck(r.Endpoint, r.Scenario, m, st, bv, cv, cfg, r.Head)
	c.Stratum, c.perRun = in.stratum, perRunOf(r, in.stratum)
	switch {
	case in.reported == notReported:
		untestable(&c, vocab.NotReported, 0)
	case r.Base == nil || in.reported == newStage:
		c.Status = vocab.NoBaseline
	case len(bv) < st.minN() || len(cv) < st.minN():
		tooFew(&c, st.minN(), r.Base, r.Head)
	default:
		c.DeltaPct = pct(c.Current, c.Baseline)
		if cfg.Bootstrap > 0 {
			*boots = append(*boots, bootJob{runIndex: runIndex, check: len(res.Checks), run: r, metric: m, st: st, blocked: d.blocked, stratum: in.stratum})
		}
		d.add(testDef{check: len(res.Checks), kind: st.kind(m), metric: in.mi, q: st.q, stratum: in.stratum}, cfg.Tolerance)
	}
	if c.BudgetUntested() && c.Status == vocab.NoBaseline {
		tooFew(&c, st.minN(), r.Base, r.Head) // its budget is what it tests
	}
	res.Checks = append(res.Checks, c)
}

// A server stage's reporting on the two sides of a run.
const (
	bothReport  = iota
	notReported // the current side's server does not report it
	newStage    // only the current side's does: nothing to compare with
)

// reporting says which sides of r report metric m (values bv, cv): a
// stage latgate measures itself is always "both"; a server's stage is
// compared only where both sides report it, never invented where one
// does not.
func reporting(r Pair, m vocab.Metric, bv, cv []float64) int {
	switch {
	case !m.Server():
		return bothReport
	case len(cv) == 0 && slices.Contains(r.Head.OK, true):
		return notReported // (without a successful request, too few)
	case r.Base != nil && len(bv) == 0:
		return newStage
	}
	return bothReport
}

// hasAnyBudget reports whether any statistic of m has a budget.
func hasAnyBudget(cfg Config, m vocab.Metric) bool {
	for _, st := range m.Stats() {
		if hasBudget(cfg, m, st) {
			return true
		}
	}
	return false
}

// sides lists the request counts a p99 check needs: the current run's,
// and the baseline's when there is one.
func sides(hasBase bool, nb, nc int) []int {
	if hasBase {
		return []int{nb, nc}
	}
	return []int{nc}
}

// permData prepares a run's permutation data, warning when an A/B run's
// blocks cannot be used as such; nil without a baseline.
func permData(res *Result, r Pair) *runTests {
	if r.Base == nil {
		return nil
	}
	isBlocked := blocked(r)
	if (r.Base.Block != nil || r.Head.Block != nil) && !isBlocked {
		res.Warnings = append(res.Warnings, Warning{Kind: vocab.Unblocked, Endpoint: r.Endpoint, Scenario: r.Scenario})
	}
	if isBlocked {
		if n := unpairedRequests(r); n > 0 {
			res.Warnings = append(res.Warnings, Warning{Kind: vocab.OneSidedBlocks, Endpoint: r.Endpoint, Scenario: r.Scenario, N: n})
		}
	}
	if drawsDiffer(r) {
		res.Warnings = append(res.Warnings, Warning{Kind: vocab.WorkloadsDiffer, Endpoint: r.Endpoint, Scenario: r.Scenario})
	}
	return newRunTests(r, isBlocked, stratified(r))
}

// kind is the permutation test of statistic s of metric m. A count's
// mean is tested as a difference of means: its few distinct values (3 or
// 4 steps) make the exceedance of the mean blind to the tolerance (4
// steps scaled by 1/1.1 are still above a mean of 3), so it would test
// "no extra step at all" instead of "more than the tolerance".
func (s statDef) kind(m vocab.Metric) testKind {
	switch {
	case s.q < 0 && m.IsCount():
		return kindMeanDiff
	case s.q < 0:
		return kindMean
	case s.q == 0.5:
		return kindRank
	}
	return kindTail
}

// add registers test t (its direction unset) in both directions (one
// direction when the tolerance is 100% or more: no improvement can be
// beyond it).
func (rt *runTests) add(t testDef, tolerance float64) {
	t.dir = 1
	rt.tests = append(rt.tests, t)
	if tolerance < 1 {
		t.dir = -1
		rt.tests = append(rt.tests, t)
	}
}

// addRateChecks appends the error rate, goodput (with SLOs) and cache hit
// rate (with a floor) checks of a run.
func addRateChecks(res *Result, d *runTests, r Pair, cfg Config) {
	rates := []Check{errorCheck(r, cfg)}
	kinds := []testKind{kindErrors}
	if len(cfg.Goodput) > 0 {
		rates = append(rates, goodputCheck(r, cfg))
		kinds = append(kinds, kindGoodput)
	}
	for i, c := range rates {
		switch {
		case r.Base == nil:
			c.Status = vocab.NoBaseline
		case c.NBase == 0 || c.NCurrent == 0:
			untestable(&c, vocab.NoRequests, 0)
		default:
			d.add(testDef{check: len(res.Checks), kind: kinds[i], metric: -1, margin: rateMargin(c.Metric, c.Baseline, cfg.Tolerance)}, cfg.Tolerance)
			c.CIPoints = newcombe(c.Baseline, c.NBase, c.Current, c.NCurrent, cfg.ciAlpha)
		}
		res.Checks = append(res.Checks, c)
	}
	if c := cacheCheck(r, cfg); c != nil {
		res.Checks = append(res.Checks, *c)
	}
}

// goodShare is the share of requests that succeeded and met every SLO
// objective they observed; NaN without a sample.
func goodShare(s *Sample, slos []SLO) float64 {
	if s == nil || s.N() == 0 {
		return math.NaN()
	}
	good := 0
	for i := range s.OK {
		if meets(s, i, slos) {
			good++
		}
	}
	return float64(good) / float64(s.N())
}

func meets(s *Sample, i int, slos []SLO) bool {
	if !s.OK[i] {
		return false
	}
	for _, o := range slos {
		if v := s.Values[o.Metric]; i < len(v) && !math.IsNaN(v[i]) && v[i] > o.Max {
			return false
		}
	}
	return true
}

// cacheShare is the prompt-cache hit rate: cached ÷ prompt tokens; NaN
// when the server reported no prompt tokens.
func cacheShare(s *Sample) float64 {
	if s == nil || s.PromptTokens == 0 {
		return math.NaN()
	}
	return float64(s.CachedTokens) / float64(s.PromptTokens)
}

// requestsFor is how many requests per side give minN successful ones at
// the worse side's failure rate (with a margin of two), or 0 when no
// request failed.
func requestsFor(minN int, base, cur *Sample) int {
	worst := 0.0
	for _, s := range []*Sample{base, cur} {
		if s == nil || s.N() == 0 {
			continue
		}
		rate, _ := failRate(s)
		worst = math.Max(worst, rate)
	}
	if worst == 0 || worst >= 0.9 {
		return 0
	}
	return int(math.Ceil(float64(minN)/(1-worst))) + 2
}

// minDelta is the absolute threshold for a metric: MinDelta for whole-request
// metrics; for per-token metrics (itl, tpot) MinDelta spread over the
// response's events, so the change must add up to MinDelta per response.
func minDelta(cfg Config, metric vocab.Metric, cur *Sample) float64 {
	switch {
	case metric.IsCount():
		return 0 // a count is no latency: the tolerance alone applies
	case !metric.PerEvent():
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

// practical reports whether a check's point estimate is beyond the
// thresholds, and in which direction.
func practical(c *Check, cfg Config) (beyond, worse bool) {
	diff := c.Current - c.Baseline
	worse = diff > 0
	if c.Metric.HigherIsBetter() {
		// A drop in the good share, read as a rise in the miss rate.
		return math.Abs(diff) >= rateMargin(c.Metric, c.Baseline, cfg.Tolerance), diff < 0
	}
	if c.Metric == vocab.Errors {
		return math.Abs(diff) >= rateMargin(c.Metric, c.Baseline, cfg.Tolerance), worse
	}
	return math.Abs(diff) > c.MinDelta && math.Abs(c.DeltaPct) > cfg.Tolerance*100, worse
}

// rateMargin is the smallest change of a rate that matters: one
// percentage point, or Tolerance of the baseline's failure (miss) rate if
// larger. It is both the threshold a change must pass and the minimum
// effect of the rate's test (its null hypothesis is "worse by at most the
// margin"), so an unchanged run whose failure count wobbles is not a
// regression just because the wobble is significant.
func rateMargin(metric vocab.Metric, base, tol float64) float64 {
	miss := base
	if metric.HigherIsBetter() {
		miss = 1 - base
	}
	if math.IsNaN(miss) {
		miss = 0
	}
	return math.Max(0.01, tol*miss)
}

// decide sets a check's status from its estimates, p-values, interval
// and thresholds: a regression (or improvement) when significant after
// the correction; inconclusive when worse and significant on its own only;
// else within tolerance when its interval is (bounded), or no regression
// shown (testable, below, may still make it not tested). A budget breach
// takes precedence; Regressed keeps what the change showed.
func decide(c *Check, cfg Config, tested int) {
	if c.Status == "" {
		c.Bounded = bounded(c, cfg)
	}
	if c.Status != "" { // no_baseline or not testable
		overBudget(c)
		return
	}
	beyond, worse := practical(c, cfg)
	significant := c.PValue <= cfg.Alpha
	switch {
	case beyond && significant && worse:
		c.Status, c.Regressed = vocab.Regression, true
	case beyond && significant:
		c.Status = vocab.Improvement
	case beyond && worse && c.RawP <= cfg.Alpha:
		c.Status, c.Reason = vocab.Inconclusive, vocab.Uncorrected
		c.NeedN = c.runRequests(neededN(c, cfg.Alpha, tested))
	case c.Bounded:
		c.Status = vocab.WithinTolerance
	default:
		c.Status, c.Reason = vocab.NoRegressionShown, vocab.NotSignificant
		c.NeedN = c.runRequests(boundN(c, cfg))
	}
	if overBudget(c) {
		c.Reason, c.NeedN = "", 0
	}
}

// bounded reports whether a tested check's interval lies within the
// tolerance: its upper end (the worse end) within the tolerance or within
// the minimum delta of the baseline; a rate's within its margin.
func bounded(c *Check, cfg Config) bool {
	switch {
	case c.Metric == vocab.Errors:
		return c.CIPoints[1] <= rateMargin(c.Metric, c.Baseline, cfg.Tolerance)
	case c.Metric.HigherIsBetter():
		return -c.CIPoints[0] <= rateMargin(c.Metric, c.Baseline, cfg.Tolerance)
	case math.IsNaN(c.CIPct[1]):
		return false
	}
	hi := c.CIPct[1]
	return hi <= cfg.Tolerance*100 || c.Baseline > 0 && c.Baseline*hi/100 <= c.MinDelta
}

// worse reports whether a check's estimate points to worse latency, more
// failures or fewer good requests.
func (c *Check) worse() bool {
	if c.Metric.HigherIsBetter() {
		return c.Current < c.Baseline
	}
	return c.Current > c.Baseline
}

func overBudget(c *Check) bool {
	if exceedsBudget(c) {
		c.Status = vocab.OverBudget
		return true
	}
	return false
}

// exceedsBudget reports whether a check's current value is beyond its
// budget (below it for the rates whose budget is a floor); never for a
// budget its run has too few requests to test (BudgetUntested).
func exceedsBudget(c *Check) bool {
	if math.IsNaN(c.Budget) || math.IsNaN(c.Current) || c.BudgetUntested() {
		return false
	}
	if c.Metric.HigherIsBetter() {
		return c.Current < c.Budget
	}
	return c.Current > c.Budget
}

// z80 is the standard normal quantile for 80% power.
var z80 = stats.NormPpf(0.80, 0, 1)

func hash(s string) uint64 {
	var h uint64 = 14695981039346656037
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}
