package compare

import (
	"math"
	"slices"

	"github.com/montanaflynn/stats"

	"github.com/latgate/latgate/vocab"
)

// NoiseCheck is what one comparison (an A/A run, where both sides ran the
// same configuration, or any pair) says about the sensitivity of one
// latency check at its request count.
type NoiseCheck struct {
	Endpoint, Scenario string
	Metric             vocab.Metric
	Stat               vocab.Stat
	NBase, NCurrent    int
	// NoisePct is the half-width of the 1−Alpha bootstrap interval of the
	// change, in percent: how far apart two runs of the same thing land.
	NoisePct float64
	// MDEPct is the smallest regression, in percent, that this check
	// flags with 80% power at the current request count, after the
	// family-wise correction and the minimum-effect null (so it is always
	// above the tolerance).
	MDEPct float64
	// TargetPct is the regression that NeedN is sized for: twice the
	// tolerance (a regression of exactly the tolerance is, by design,
	// never confidently beyond it).
	TargetPct float64
	// NeedN is the requests per side that would catch a regression of
	// TargetPct with 80% power; 0 when min_delta makes the target
	// unreachable (MinDeltaBound) or the noise could not be measured.
	NeedN int
	// MinDeltaBound: the target is within min_delta of the baseline, so
	// no count of requests reaches it.
	MinDeltaBound bool
}

// Noise measures, for every latency check of runs that have both sides,
// the sampling noise of the change, the minimum detectable regression at
// 80% power (MDE) and the requests per side needed to catch a regression
// of twice the tolerance.
//
// How: the noise is the bootstrap interval of the change (whole blocks for
// interleaved runs; cfg.Bootstrap resamples, default 1000). The power is
// the check's own test's: its standardized statistic z (exact: SD 1 under
// the null) moves with a slowdown of the current run by a factor e^h as
// h/se, se the test's standard error per unit of log change, which is
// measured on the data by scaling the current run (testSE). A check is
// flagged when z exceeds the one-sided Bonferroni threshold over the
// suite's tested checks (the maxT correction is a little less strict), and
// the test's null is the tolerance, so with 80% power
//
//	MDE = (1+Tolerance)·exp((z + z₀.₈)·se) − 1,
//
// raised to MinDelta relative to the baseline if that is larger. se
// shrinks as 1/√n, which gives NeedN. (The bootstrap standard error of the
// statistic itself stands in where the test has none.) docs/statistics.md
// compares MDE with the detection measured by simulation.
func Noise(runs []Pair, cfg Config) []NoiseCheck {
	cfg.defaults()
	if cfg.Bootstrap < 0 {
		cfg.Bootstrap = 1000
	}
	cands, tested := noiseCands(runs, cfg)
	z := detectZ(cfg.Alpha, tested)
	// One bootstrap per run for all its checks.
	var plans []*bootPlan
	for i, c := range cands {
		if i == 0 || c.run != cands[i-1].run {
			plans = append(plans, &bootPlan{r: c.r, blocked: blocked(c.r)})
		}
		p := plans[len(plans)-1]
		p.wants = append(p.wants, bootWant{metric: slices.Index(vocab.PerRequest, c.metric), st: c.st})
	}
	all := bootstrapChanges(plans, cfg.Bootstrap, cfg.Seed)
	tse := map[int]map[statKey]float64{}
	for ri, r := range runs {
		if r.Base != nil && r.Head != nil {
			tse[ri] = testSE(r, cfg)
		}
	}
	var out []NoiseCheck
	pi, wi := 0, 0
	for _, c := range cands {
		if p := plans[pi]; wi == len(p.wants) {
			pi, wi = pi+1, 0
		}
		se, ok := tse[c.run][statKey{c.metric, c.st.name, 0}]
		out = append(out, c.noise(all[pi][wi], se, ok, z, cfg))
		wi++
	}
	return out
}

// noiseCand is a check of Noise's family: every check Compare would test.
type noiseCand struct {
	run      int // position in runs
	r        Pair
	metric   vocab.Metric
	st       statDef
	nb, nc   int
	base     float64
	minDelta float64
}

// noiseCands are the latency checks of runs that can be tested, and the
// size of the family (the error rates included).
func noiseCands(runs []Pair, cfg Config) ([]noiseCand, int) {
	var cands []noiseCand
	tested := 0
	for ri, r := range runs {
		if r.Base == nil || r.Head == nil {
			continue
		}
		tested++ // the error rate
		for _, m := range vocab.PerRequest {
			bv, cv := okValues(r.Base, m), okValues(r.Head, m)
			for _, st := range statsOf(m) {
				if len(bv) < st.minN() || len(cv) < st.minN() {
					continue
				}
				tested++
				cands = append(cands, noiseCand{ri, r, m, st, len(bv), len(cv), st.of(bv), minDelta(cfg, m, r.Head)})
			}
		}
	}
	return cands, tested
}

// noise is a check's noise (from its bootstrap draws of the change, in
// percent), MDE and requests needed, from its test's standard error tse
// when it has one (ok), else the bootstrap's.
func (c noiseCand) noise(draws []float64, tse float64, ok bool, z float64, cfg Config) NoiseCheck {
	target := 2 * cfg.Tolerance
	nc := NoiseCheck{
		Endpoint: c.r.Endpoint, Scenario: c.r.Scenario, Metric: c.metric, Stat: c.st.name,
		NBase: c.nb, NCurrent: c.nc, NoisePct: math.NaN(), MDEPct: math.NaN(), TargetPct: target * 100,
	}
	logs := make([]float64, 0, len(draws))
	for _, d := range draws {
		if d > -100 {
			logs = append(logs, math.Log1p(d/100))
		}
	}
	se, err := stats.StandardDeviationSample(logs)
	if ok {
		se = tse
	}
	if err != nil || len(draws) < 2 {
		return nc
	}
	nc.NoisePct = (Quantile(draws, 1-cfg.ciAlpha/2) - Quantile(draws, cfg.ciAlpha/2)) / 2
	mde := (1+cfg.Tolerance)*math.Exp(z*se) - 1
	if c.base > 0 {
		mde = math.Max(mde, c.minDelta/c.base)
	}
	nc.MDEPct = mde * 100
	nc.NeedN = detectN(min(c.nb, c.nc), se, c.base, c.minDelta, c.st.minN(), z, cfg.Tolerance)
	nc.MinDeltaBound = c.base > 0 && target*c.base <= c.minDelta
	return nc
}

// statKey identifies a latency check within its run.
type statKey struct {
	metric  vocab.Metric
	stat    vocab.Stat
	stratum int
}

// testSE is, per (metric, stat, stratum) of run r, the standard error per unit of
// log change of the check's regression test: its standardized statistic is
// computed as it is and with the current run slowed by e^h, and moves by
// h/se. Counts (step_count) are not slowed; a test that does not move has
// no entry.
func testSE(r Pair, cfg Config) map[statKey]float64 {
	const h = 0.1
	z := func(k float64) map[statKey]float64 {
		p := r
		p.Head = scaled(r.Head, k)
		var res Result
		var boots []bootJob
		c := cfg
		c.Bootstrap = -1
		rt := addChecks(&res, 0, p, c, &boots)
		out := map[statKey]float64{}
		if rt == nil || len(rt.tests) == 0 {
			return out
		}
		rt.build(c)
		for ti, t := range rt.tests {
			if ch := res.Checks[t.check]; t.dir > 0 && t.metric >= 0 && rt.mom[ti][1] > 0 {
				out[statKey{ch.Metric, ch.Stat, ch.Stratum}] = rt.obs[ti]
			}
		}
		return out
	}
	z0, z1 := z(1), z(math.Exp(h))
	out := map[statKey]float64{}
	for k, a := range z0 {
		if b, ok := z1[k]; ok && b > a {
			out[k] = h / (b - a)
		}
	}
	return out
}

// scaled is a sample with every latency multiplied by k (counts as they
// are).
func scaled(s *Sample, k float64) *Sample {
	out := *s
	out.Values = map[vocab.Metric][]float64{}
	for m, v := range s.Values {
		if m.IsCount() {
			out.Values[m] = v
			continue
		}
		w := make([]float64, len(v))
		for i, x := range v {
			w[i] = x * k
		}
		out.Values[m] = w
	}
	return &out
}
