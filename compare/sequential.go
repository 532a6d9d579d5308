package compare

import (
	"math"

	"github.com/latgate/latgate/vocab"
)

// Adaptive sampling: a group-sequential design.
//
// An adaptive scenario (requests: {min, max}) is measured in batches and
// looked at after min, min+batch, … requests per side, and finally at max:
// K planned looks. At every interim look the scenario's checks are compared
// with what was measured so far, and the scenario stops when they are
// decided:
//
//   - regression: the comparison of this run alone flags a regression at
//     the look's level (Design.LookAlpha). Sampling stops; the final
//     comparison decides the status.
//   - pass: every check is within the tolerance, shown by its interval
//     (Check.Bounded: the interval's worse end inside the tolerance or the
//     minimum delta), or could not be tested even at max (its run could
//     not catch twice the tolerance with max requests per side: a P95 at
//     a pull request's size). A point estimate within the tolerance is no
//     evidence at a small look: a real +20% change estimates within +10%
//     in one look of ten at 80 requests per side, and "+8% [−3%, +22%]"
//     has shown no bound. A check still short of the samples it needs, or
//     whose interval still reaches beyond the tolerance, keeps the
//     scenario going. Stopping for a pass can never create a false alarm:
//     it only gives up power, which the calibration measures.
//
// Looking repeatedly at growing data and stopping when a test rejects
// raises the false-alarm rate (each look is another chance). The design
// spends alpha over the looks with a Bonferroni split, which the union
// bound makes valid whatever the correlation between looks: each of the S
// runs of the suite gets alpha/S; a share Interim of it is split equally
// among its K−1 interim looks (LookAlpha each) and the rest goes to the
// final look (RunAlpha). The final comparison (CompareSequential) compares
// each run on its own at RunAlpha. A false regression of a run needs a
// false rejection at the look where it stopped — an interim look at
// LookAlpha, or the final comparison at RunAlpha (a pass stop leaves every
// test pointing within the tolerance, at a raw p-value of at least Pass,
// so the final comparison, at a far stricter level, of the same data and
// the few requests in flight at the stop does not flag it) — so its
// probability is at most (K−1)·LookAlpha + RunAlpha = alpha/S, and at most
// alpha over the suite. Fixed scenarios in an adaptive suite are held to
// RunAlpha as well (simple and conservative). Keeping most of alpha for
// the final look (DefaultInterim = 25% for the interim looks) means a run
// that goes to max is tested almost as strictly as a fixed one, the idea
// behind O'Brien–Fleming boundaries, while large effects still stop early.
//
// Assumptions: as Compare (requests exchangeable within a run, or within a
// block for interleaved A/B runs), at every look; the baseline does not
// change between looks (a stored baseline, or the base variant measured
// alongside in A/B). The split is conservative: the looks are strongly
// correlated, so exact group-sequential boundaries would spend less; the
// union bound needs no model of that correlation. Comparing runs one by
// one loses the suite-wide Westfall–Young gain across runs, which is small
// (runs are measured independently, so their maxT family is nearly
// Bonferroni's), and keeps a run that stopped early, with few requests and
// coarse tail tests, from raising the threshold of the others.

// Design is the group-sequential plan of a suite's comparison.
type Design struct {
	Alpha float64 // suite-wide family-wise alpha
	Looks int     // K: the most planned looks of any run of the suite (1 = fixed)
	Runs  int     // S: runs ((endpoint, scenario) pairs) compared in the suite
	// Interim is the share of alpha spent on the K−1 interim looks, split
	// equally among them; the rest goes to the final look. 0 means
	// DefaultInterim.
	Interim float64
}

// DefaultInterim is the share of alpha the interim looks spend: most of it
// is kept for the final look, so a scenario that runs to max is tested
// almost as strictly as a fixed one (O'Brien–Fleming's idea, with a
// Bonferroni split).
const DefaultInterim = 0.25

// DefaultPermutations is Compare's default permutation count.
const DefaultPermutations = 2000

// maxLookPermutations bounds the permutations of one interim look.
const maxLookPermutations = 20000

// NewDesign is the design of a suite of runs whose adaptive scenarios take
// at most looks looks, with the default spending and pass rule.
func NewDesign(alpha float64, looks, runs int) Design {
	return Design{Alpha: alpha, Looks: max(looks, 1), Runs: max(runs, 1), Interim: DefaultInterim}
}

// PlannedLooks is the number of looks of a scenario measured from min in
// batches of batch up to max: min, min+batch, … below max, then max. A
// fixed scenario (min 0, or min ≥ max) has one.
func PlannedLooks(min, max, batch int) int {
	if min <= 0 || min >= max {
		return 1
	}
	if batch <= 0 {
		batch = min
	}
	return 1 + (max-min+batch-1)/batch
}

func (d Design) shares() (interim, final float64) {
	if d.Looks <= 1 {
		return 0, 1
	}
	w := d.Interim
	if w <= 0 || w >= 1 {
		w = DefaultInterim
	}
	return w / float64(d.Looks-1), 1 - w
}

// LookAlpha is the level of one run's test at one interim look:
// alpha · Interim / ((K−1) · S).
func (d Design) LookAlpha() float64 {
	w, _ := d.shares()
	return d.Alpha * w / float64(max(d.Runs, 1))
}

// RunAlpha is the level at which the final comparison holds each run:
// alpha · (1 − Interim) / S (alpha/S for a fixed suite).
func (d Design) RunAlpha() float64 {
	_, w := d.shares()
	return d.Alpha * w / float64(max(d.Runs, 1))
}

// CompareSequential is the final comparison of a suite with adaptive
// scenarios: each run is compared on its own (Westfall–Young maxT over its
// checks) at RunAlpha, and the results are merged. Holding every run at
// its own level makes the union bound over runs and looks exact, and keeps
// a run that stopped early, with few requests and coarse tail tests, from
// raising the threshold of the others.
func CompareSequential(runs []Pair, cfg Config, d Design) Result {
	cfg.defaults()
	cfg.ciAlpha, cfg.testAlpha, cfg.Alpha = cfg.Alpha, d.RunAlpha(), d.RunAlpha()
	parts := make([]Result, len(runs))
	InParallel(len(runs), func(i int) { parts[i] = Compare(runs[i:i+1], cfg) })
	res := Result{Verdict: vocab.Pass, Checks: []Check{}, Design: &d}
	for _, p := range parts {
		res.Permutations = max(res.Permutations, p.Permutations)
		res.Checks = append(res.Checks, p.Checks...)
		res.Warnings = append(res.Warnings, p.Warnings...)
		res.Tested += p.Tested
		if p.Verdict == vocab.Fail {
			res.Verdict = vocab.Fail
		}
	}
	return res
}

// NoiseSequential is Noise under a sequential design: each run on its own
// at the design's run level, as CompareSequential compares them, so that
// the requests it says a check needs are the ones the comparison's
// not_tested checks say (its noise is still the suite's 95% interval).
func NoiseSequential(runs []Pair, cfg Config, d Design) []NoiseCheck {
	cfg.defaults()
	cfg.ciAlpha, cfg.Alpha = cfg.Alpha, d.RunAlpha()
	var out []NoiseCheck
	for i := range runs {
		out = append(out, Noise(runs[i:i+1], cfg)...)
	}
	return out
}

// lookConfig is the configuration of an interim look's comparison: the
// look's level, enough permutations to reach it, the suite's intervals
// (a pass needs them), no budgets.
func (d Design) lookConfig(cfg Config) Config {
	cfg.defaults()
	cfg.ciAlpha, cfg.testAlpha, cfg.Alpha = cfg.Alpha, d.RunAlpha(), d.LookAlpha()
	// A permutation p-value is at least 1/(B+1): enough permutations
	// that about five of them lie beyond the look's threshold (at most
	// maxLookPermutations, which still reaches the level of a look in a
	// suite of 60 runs). Compare draws them only while a status is not
	// yet settled, so most looks stop after the first 200.
	cfg.Permutations = max(cfg.Permutations, DefaultPermutations, min(maxLookPermutations, int(math.Ceil(5/cfg.Alpha))))
	cfg.Budgets = nil // budgets are absolute: the final comparison checks them
	return cfg
}

// holdsOpen reports whether check c of a look keeps its run measuring:
// too few requests to test it yet, an inconclusive change, or one whose
// interval still reaches beyond the tolerance (a check the run could not
// test even at max is not tested, and holds nothing open).
func holdsOpen(c *Check) bool {
	switch c.Status {
	case vocab.NotTested:
		return c.Reason == vocab.TooFew
	case vocab.Inconclusive, vocab.NoRegressionShown:
		return true
	}
	return false
}

// Decision is the outcome of one interim look.
type Decision struct {
	Stop bool
	// Outcome is vocab.Regression (a check regressed) or
	// vocab.WithinTolerance (every check is bounded within the tolerance,
	// or cannot be tested even at max) when Stop; "" to continue.
	Outcome vocab.Status
	// Check is the check that regressed when Stop, or the one still open
	// (too few requests to test it, or its interval still beyond the
	// tolerance) when not; nil for a pass, or when there is no baseline
	// to compare with.
	Check *Check
}

// Look decides an interim look at a run with what it measured so far. cfg
// holds the suite's thresholds; its Alpha is replaced by the look's level.
// A run without a baseline is never decided. Both samples' Max is the
// run's max: a check its run could not test even at max does not hold it
// open.
func (d Design) Look(r Pair, cfg Config) Decision {
	if r.Base == nil || r.Head == nil {
		return Decision{}
	}
	res := Compare([]Pair{r}, d.lookConfig(cfg))
	var open *Check
	for i := range res.Checks {
		c := &res.Checks[i]
		switch {
		case c.Status == vocab.Regression:
			return Decision{Stop: true, Outcome: vocab.Regression, Check: c}
		case open == nil && holdsOpen(c):
			open = c
		}
	}
	if open != nil {
		return Decision{Check: open}
	}
	return Decision{Stop: true, Outcome: vocab.WithinTolerance}
}
