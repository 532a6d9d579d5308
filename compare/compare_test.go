package compare

import (
	"math"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// model is a realistic latency model for one scenario: a log-normal TTFT
// body with queueing spikes, a per-request pace (mean inter-token gap), a
// fixed number of tokens, and a failure rate. Every latency is multiplied
// by scale, TTFT additionally by ttftScale.
type model struct {
	ttftMedian, ttftSigma float64
	spikeP                float64
	spikeMin, spikeMax    float64
	itlMedian, itlSigma   float64
	tokens                int
	errRate               float64
	scale, ttftScale      float64
}

func realistic() model {
	return model{
		ttftMedian: 0.350, ttftSigma: 0.35,
		spikeP: 0.05, spikeMin: 0.3, spikeMax: 1.5,
		itlMedian: 0.015, itlSigma: 0.15, tokens: 128,
		errRate: 0.01, scale: 1, ttftScale: 1,
	}
}

func (m model) sample(n int, rng *rand.Rand) *Sample {
	s := &Sample{Values: map[string][]float64{}, Events: float64(m.tokens)}
	for range n {
		ok := rng.Float64() >= m.errRate
		ttft := m.ttftMedian * math.Exp(m.ttftSigma*rng.NormFloat64())
		if rng.Float64() < m.spikeP {
			ttft += m.spikeMin + rng.Float64()*(m.spikeMax-m.spikeMin)
		}
		ttft *= m.scale * m.ttftScale
		itl := m.scale * m.itlMedian * math.Exp(m.itlSigma*rng.NormFloat64())
		total := ttft + float64(m.tokens-1)*itl
		vals := map[string]float64{"ttft": ttft, "ttfc": ttft, "itl": itl, "tpot": itl, "total": total, "perceived": ttft}
		if !ok {
			for k := range vals {
				vals[k] = math.NaN()
			}
		}
		s.OK = append(s.OK, ok)
		for k, v := range vals {
			s.Values[k] = append(s.Values[k], v)
		}
	}
	return s
}

func pair(base, cur model, n int, seed uint64) []Run {
	rng := rand.New(rand.NewPCG(seed, 7))
	return []Run{
		{Endpoint: "e", Scenario: "short", Base: base.sample(n, rng), Current: cur.sample(n, rng)},
		{Endpoint: "e", Scenario: "long", Base: realistic().sample(n, rng), Current: realistic().sample(n, rng)},
	}
}

func cfg() Config {
	return Config{Tolerance: 0.10, MinDelta: 0.025, Alpha: 0.05, Permutations: 500, Bootstrap: 200}
}

func find(t *testing.T, r Result, scenario, metric, stat string) Check {
	t.Helper()
	for _, c := range r.Checks {
		if c.Scenario == scenario && c.Metric == metric && c.Stat == stat {
			return c
		}
	}
	t.Fatalf("no check %s %s %s", scenario, metric, stat)
	return Check{}
}

func TestUnchangedRarelyFails(t *testing.T) {
	c := cfg()
	c.Bootstrap = -1
	c.Permutations = 300
	fails := 0
	const reps = 60
	for seed := range uint64(reps) {
		r := Compare(pair(realistic(), realistic(), 50, seed), c)
		if r.Verdict == "fail" {
			fails++
		}
	}
	// The calibration study measures the rate precisely (≤ 1%); here a
	// coarse bound that a broken correction (or none) would exceed.
	if fails > 2 {
		t.Errorf("%d of %d unchanged pairs failed, want at most 2", fails, reps)
	}
}

func TestDetectsShift(t *testing.T) {
	slow := realistic()
	slow.scale = 1.4
	r := Compare(pair(realistic(), slow, 50, 3), cfg())
	if r.Verdict != "fail" {
		t.Fatalf("verdict = %s, want fail for a +40%% shift", r.Verdict)
	}
	for _, m := range []string{"total", "itl", "tpot"} {
		if c := find(t, r, "short", m, "p50"); c.Status != Regression {
			t.Errorf("%s p50: status %s (delta %.1f%%, p %.4f), want regression", m, c.Status, c.DeltaPct, c.PValue)
		}
	}
	c := find(t, r, "short", "total", "p50")
	if !(c.CIPct[0] < c.DeltaPct && c.DeltaPct < c.CIPct[1]) || c.CIPct[0] < 20 {
		t.Errorf("total p50 change %.1f%% with CI %v: want a CI around it well above 0", c.DeltaPct, c.CIPct)
	}
	// The unchanged scenario stays quiet.
	for _, c := range r.Checks {
		if c.Scenario == "long" && c.Status == Regression {
			t.Errorf("unchanged scenario flagged: %+v", c)
		}
	}
	// And the mirror image is an improvement.
	r = Compare(pair(slow, realistic(), 50, 3), cfg())
	if c := find(t, r, "short", "total", "p50"); c.Status != Improvement || r.Verdict != "pass" {
		t.Errorf("status %s verdict %s, want improvement and pass", c.Status, r.Verdict)
	}
}

func TestDetectsTailOnlyRegression(t *testing.T) {
	spiky := realistic()
	spiky.spikeP = 0.30
	r := Compare(pair(realistic(), spiky, 100, 5), cfg())
	if c := find(t, r, "short", "ttft", "p95"); c.Status != Regression {
		t.Errorf("ttft p95: status %s (delta %.1f%%, p %.4f), want regression", c.Status, c.DeltaPct, c.PValue)
	}
}

func TestFewSamplesAreInconclusive(t *testing.T) {
	r := Compare(pair(realistic(), realistic(), 20, 1), cfg())
	c := find(t, r, "short", "ttft", "p95")
	if c.Status != Inconclusive || c.NeedN != 40 || !strings.Contains(c.Note, "need 40 successful requests per side to test p95") {
		t.Errorf("got %s need %d note %q", c.Status, c.NeedN, c.Note)
	}
	if !math.IsNaN(c.PValue) {
		t.Errorf("an untested check has p-value %v, want NaN", c.PValue)
	}
	for _, c := range r.Checks {
		if c.Stat == "p99" {
			t.Errorf("p99 check at n=20: %+v", c)
		}
	}
}

func TestBigButUncertainChangeIsInconclusive(t *testing.T) {
	// A +25% TTFT shift with very noisy TTFT at n=12: beyond tolerance,
	// rarely significant.
	noisy := realistic()
	noisy.ttftSigma = 1.0
	cur := noisy
	cur.ttftScale = 1.25
	found := false
	for seed := uint64(0); seed < 10 && !found; seed++ {
		r := Compare(pair(noisy, cur, 12, seed), cfg())
		c := find(t, r, "short", "ttft", "p50")
		if c.Status == Inconclusive {
			found = true
			if c.NeedN <= 12 || !strings.Contains(c.Note, "requests per side would decide it") {
				t.Errorf("need %d note %q: want an estimate above the current n", c.NeedN, c.Note)
			}
		}
	}
	if !found {
		t.Error("no seed gave an inconclusive check")
	}
}

func TestBudgetsAndFailOn(t *testing.T) {
	c := cfg()
	c.Budgets = []Budget{{Metric: "ttft", Stat: "p95", Value: 0.2}, {Metric: "errors", Stat: "rate", Value: 0.5}}
	r := Compare(pair(realistic(), realistic(), 50, 2), c)
	ch := find(t, r, "short", "ttft", "p95")
	if ch.Status != OverBudget || ch.Budget != 0.2 || r.Verdict != "fail" {
		t.Errorf("status %s budget %v verdict %s, want over_budget and fail", ch.Status, ch.Budget, r.Verdict)
	}
	// At n=50 no distribution-free 95% upper bound for p95 exists (NaN).
	if !(ch.CurrentCI[0] <= ch.Current && math.IsNaN(ch.CurrentCI[1])) {
		t.Errorf("current %v outside its CI %v", ch.Current, ch.CurrentCI)
	}
	if e := find(t, r, "short", "errors", "rate"); e.Status == OverBudget {
		t.Errorf("error rate %v within budget 0.5 but over_budget", e.Current)
	}
	c.FailOn = []Status{Regression}
	if r := Compare(pair(realistic(), realistic(), 50, 2), c); r.Verdict != "pass" {
		t.Errorf("verdict %s with fail_on [regression] and only budget breaches, want pass", r.Verdict)
	}
}

func TestNoBaseline(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	c := cfg()
	c.Budgets = []Budget{{Metric: "total", Stat: "p50", Value: 0.1}}
	r := Compare([]Run{{Endpoint: "e", Scenario: "new", Current: realistic().sample(30, rng)}}, c)
	if got := find(t, r, "new", "ttft", "p50").Status; got != NoBaseline {
		t.Errorf("status %s, want no_baseline", got)
	}
	if got := find(t, r, "new", "total", "p50").Status; got != OverBudget {
		t.Errorf("budgeted metric of a new scenario: status %s, want over_budget", got)
	}
	if r.Tested != 0 {
		t.Errorf("tested %d checks without a baseline", r.Tested)
	}
}

func TestErrorRate(t *testing.T) {
	bad := realistic()
	bad.errRate = 0.2
	r := Compare(pair(realistic(), bad, 100, 4), cfg())
	if c := find(t, r, "short", "errors", "rate"); c.Status != Regression {
		t.Errorf("errors 1%% → 20%%: status %s (%v → %v, p %v), want regression", c.Status, c.Baseline, c.Current, c.PValue)
	}
}

func TestDeterministic(t *testing.T) {
	slow := realistic()
	slow.scale = 1.15
	a := Compare(pair(realistic(), slow, 50, 9), cfg())
	b := Compare(pair(realistic(), slow, 50, 9), cfg())
	if !reflect.DeepEqual(stripNaN(a), stripNaN(b)) {
		t.Error("two comparisons of the same samples differ")
	}
}

func stripNaN(r Result) []string {
	var out []string
	for _, c := range r.Checks {
		out = append(out, strings.Join([]string{c.Metric, c.Stat, string(c.Status),
			strconv.FormatFloat(c.PValue, 'g', -1, 64), strconv.FormatFloat(c.DeltaPct, 'g', -1, 64),
			strconv.FormatFloat(c.CIPct[0], 'g', -1, 64)}, " "))
	}
	return out
}

func TestQuantile(t *testing.T) {
	xs := []float64{1, 2, 3, 4}
	for _, tt := range []struct{ q, want float64 }{{0, 1}, {0.5, 2.5}, {1, 4}, {0.95, 3.85}} {
		if got := Quantile(xs, tt.q); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("Quantile(%v) = %v, want %v", tt.q, got, tt.want)
		}
	}
	if !math.IsNaN(Quantile(nil, 0.5)) {
		t.Error("quantile of nothing should be NaN")
	}
}

func TestQuantileCICoverage(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	// Uniform(0,1): the true p95 is 0.95.
	covered, trials := 0, 400
	for range trials {
		xs := make([]float64, 100)
		for i := range xs {
			xs[i] = rng.Float64()
		}
		ci := QuantileCI(Sorted(xs), 0.95, 0.05)
		if ci[0] <= 0.95 && 0.95 <= ci[1] {
			covered++
		}
	}
	if rate := float64(covered) / float64(trials); rate < 0.93 {
		t.Errorf("95%% CI covered the true p95 in %.1f%% of trials, want at least 93%%", 100*rate)
	}
	if ci := QuantileCI([]float64{1, 2, 3}, 0.95, 0.05); !math.IsNaN(ci[1]) {
		t.Errorf("upper bound of p95 from 3 values = %v, want NaN (not enough data)", ci[1])
	}
}
