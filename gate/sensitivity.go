package gate

import (
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"time"

	"github.com/latgate/latgate/compare"
	"github.com/latgate/latgate/report"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/sim"
	"github.com/latgate/latgate/suite"
)

// sensitivityRuns is how many A/A runs of the suite SuiteSensitivity
// draws; the medians over them steady what one run's bootstrap says.
const sensitivityRuns = 15

// SuiteSensitivity is what cfg can detect and how long it runs when its
// endpoints answer as model does (report.Sensitivity), before anything is
// measured: what latgate init says of the suite it writes. Each request's
// TTFT and inter-token gaps are drawn from the profile's distributions
// (max_tokens capping its tokens; its perceived latency is its TTFT, the
// profile streaming faster than anyone reads), and sensitivityRuns A/A
// runs of the suite are compared by compare.Noise with the suite's
// thresholds, under the sequential design of an adaptive suite as a
// measured A/A run's table is (suiteNoise). Seeded: the same suite and
// model say the same.
func SuiteSensitivity(cfg *suite.Config, model sim.Profile) (report.Sensitivity, error) {
	th, err := CompareConfig(cfg, Overrides{})
	if err != nil {
		return report.Sensitivity{}, err
	}
	out := report.Sensitivity{Model: report.LatencyModel{Name: model.Name, TTFT: model.TTFT.Median, Spikes: model.TTFT.SpikeP, ITL: model.ITL.Median}}
	per := map[string][]compare.NoiseCheck{}
	var order []string
	for rep := range sensitivityRuns {
		rng := rand.New(rand.NewPCG(uint64(rep)+1, 0x5e9517))
		var pairs []compare.Pair
		var run, minRun time.Duration
		sessions := 0
		for _, s := range cfg.Scenarios {
			if s.IsSession() || s.Capacity != nil {
				sessions++
				continue
			}
			for _, e := range cfg.EndpointsFor(s) {
				base, mean := drawRun(rng, model, s, s.Requests)
				head, _ := drawRun(rng, model, s, s.Requests)
				pairs = append(pairs, compare.Pair{Endpoint: e.Name, Scenario: s.Name, Base: compare.SampleOf(base), Head: compare.SampleOf(head)})
				run += runTime(s, s.Requests, cfg.Lanes, mean)
				minRun += runTime(s, orElse(s.RequestsMin, s.Requests), cfg.Lanes, mean)
			}
		}
		out.Run, out.MinRun, out.Sessions = run, minRun, sessions
		th.Seed = uint64(rep) + 1
		for _, c := range suiteNoise(cfg, pairs, th) {
			k := c.Endpoint + "\x00" + c.Scenario + "\x00" + string(c.Metric) + "\x00" + string(c.Stat)
			if _, ok := per[k]; !ok {
				order = append(order, k)
			}
			per[k] = append(per[k], c)
		}
	}
	for _, k := range order {
		out.Checks = append(out.Checks, medianCheck(per[k]))
	}
	return out, nil
}

// suiteNoise is compare's noise model of pairs under the design cfg's
// comparison would hold them to (each run at the sequential design's level
// when the suite samples adaptively), so that init's statement and the A/A
// table of a measured run (NoiseRuns) come from the same computation.
func suiteNoise(cfg *suite.Config, pairs []compare.Pair, th compare.Config) []compare.NoiseCheck {
	looks, runs := 1, 0
	for _, s := range cfg.Scenarios {
		looks = max(looks, scenarioLooks(s))
		runs += len(cfg.EndpointsFor(s))
	}
	if looks > 1 {
		return compare.NoiseSequential(pairs, th, compare.NewDesign(alphaOf(th), looks, runs))
	}
	return compare.Noise(pairs, th)
}

// drawRun is a run of n successful requests of scenario s drawn from
// model, and its requests' mean total time.
func drawRun(rng *rand.Rand, model sim.Profile, s suite.Scenario, n int) (*results.Run, time.Duration) {
	tokens := model.Tokens
	if s.MaxTokens > 0 && s.MaxTokens < tokens {
		tokens = s.MaxTokens
	}
	run := &results.Run{Scenario: s.Name, Requests: make([]results.Request, n)}
	var sum time.Duration
	for i := range run.Requests {
		ttft := model.TTFT.Sample(rng)
		total := ttft
		gaps := make([]float64, max(tokens-1, 0))
		for j := range gaps {
			g := model.ITL.Sample(rng)
			total += g
			gaps[j] = ms(g)
		}
		sum += total
		q := &run.Requests[i]
		q.OK, q.OutputTokens, q.ITLMs = true, tokens, gaps
		q.TTFTMs, q.TTFCMs, q.PerceivedMs, q.TotalMs = optMs(ttft), optMs(ttft), optMs(ttft), optMs(total)
		if tokens > 1 {
			q.TPOTMs = optMs((total - ttft) / time.Duration(tokens-1))
		}
	}
	return run, sum / time.Duration(max(n, 1))
}

// runTime is about how long n measured requests of s (and its warmup) take
// at its load when a request takes mean: in waves of its concurrency, or
// at its rate (and the last request's own time).
func runTime(s suite.Scenario, n, lanes int, mean time.Duration) time.Duration {
	lanes = max(lanes, 1) // each lane a copy of the scenario's load
	if s.Rate > 0 {
		return time.Duration(float64(n+s.Warmup)/(s.Rate*float64(lanes))*float64(time.Second)) + mean
	}
	inFlight := max(s.Concurrency, 1) * lanes
	waves := (n + s.Warmup + inFlight - 1) / inFlight
	return time.Duration(waves) * mean
}

// medianCheck is one check's medians over the A/A runs: noise, MDE and
// the requests needed (0, unreachable, when most runs say so).
func medianCheck(cs []compare.NoiseCheck) compare.NoiseCheck {
	out := cs[0]
	med := func(f func(compare.NoiseCheck) float64) float64 {
		var v []float64
		for _, c := range cs {
			if x := f(c); !math.IsNaN(x) {
				v = append(v, x)
			}
		}
		if len(v) == 0 {
			return math.NaN()
		}
		sort.Float64s(v)
		return compare.Quantile(v, 0.5)
	}
	out.NoisePct = med(func(c compare.NoiseCheck) float64 { return c.NoisePct })
	out.MDEPct = med(func(c compare.NoiseCheck) float64 { return c.MDEPct })
	needs := make([]int, len(cs))
	for i, c := range cs {
		needs[i] = c.NeedN
	}
	slices.Sort(needs)
	out.NeedN = needs[len(needs)/2]
	return out
}

// orElse is a unless it is 0, else b.
func orElse(a, b int) int {
	if a > 0 {
		return a
	}
	return b
}
