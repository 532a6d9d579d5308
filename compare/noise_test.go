package compare

import (
	"math/rand/v2"
	"testing"

	"github.com/latgate/latgate/vocab"
)

func TestNoise(t *testing.T) {
	t.Parallel()
	at := func(n int) NoiseCheck {
		rng := rand.New(rand.NewPCG(21, uint64(n)))
		runs := []Pair{{Endpoint: "e", Scenario: "s", Base: realistic().sample(n, rng), Head: realistic().sample(n, rng)}}
		for _, c := range Noise(runs, cfg()) {
			if c.Metric == "total" && c.Stat == "p50" {
				return c
			}
		}
		t.Fatalf("no total p50 at n = %d", n)
		return NoiseCheck{}
	}
	small, large := at(50), at(800)
	t.Logf("n=50: %+v", small)
	t.Logf("n=800: %+v", large)
	// Noise shrinks as 1/√n: a quarter at 16 times the requests.
	if r := large.NoisePct / small.NoisePct; r < 0.15 || r > 0.4 {
		t.Errorf("noise %.2f%% at n=50, %.2f%% at n=800: ratio %.2f, want about 0.25", small.NoisePct, large.NoisePct, r)
	}
	for _, c := range []NoiseCheck{small, large} {
		if c.MDEPct <= 10 || c.TargetPct != 20 || c.NeedN <= 0 {
			t.Errorf("n=%d: MDE %.1f%% target %.0f%% need %d: want MDE above the 10%% tolerance and an estimate", c.NBase, c.MDEPct, c.TargetPct, c.NeedN)
		}
	}
	if small.MDEPct <= large.MDEPct {
		t.Errorf("MDE %.1f%% at n=50 not above %.1f%% at n=800", small.MDEPct, large.MDEPct)
	}
	// Both sizes estimate the same requirement.
	if r := float64(small.NeedN) / float64(large.NeedN); r < 0.6 || r > 1.6 {
		t.Errorf("requests needed: %d from n=50, %d from n=800", small.NeedN, large.NeedN)
	}
}

// TestNotTestedSaysTheAATablesFigure: a check a run is too small to test
// says the requests that would catch twice the tolerance (DetectN) as the
// A/A table of the same run does, and its NeedN is the larger figure of
// that and of bounding its interval within the tolerance: the note and
// the table never disagree ("up to 21,655 would catch +20%" beside a
// table's 3,035, before).
func TestNotTestedSaysTheAATablesFigure(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 0xaa))
	r := abPair(realistic(), realistic(), 300, 0.10, rng)
	r.Base.Max, r.Head.Max = 400, 400
	cfg := Config{Tolerance: 0.10, MinDelta: 25, Alpha: 0.05, Permutations: 500, Bootstrap: 500}
	d := NewDesign(cfg.Alpha, 4, 1)
	res := CompareSequential([]Pair{r}, cfg, d)
	table := map[[2]string]int{}
	for _, nc := range NoiseSequential([]Pair{r}, cfg, d) {
		table[[2]string{string(nc.Metric), string(nc.Stat)}] = nc.NeedN
	}
	compared, bounding := 0, 0
	for _, c := range res.Checks {
		if c.Status != vocab.NotTested || c.Reason != vocab.Underpowered || c.Metric.IsRate() {
			continue
		}
		want, ok := table[[2]string{string(c.Metric), string(c.Stat)}]
		if !ok {
			t.Errorf("%s %s: not tested, and the A/A table has no row for it", c.Metric, c.Stat)
			continue
		}
		compared++
		if c.DetectN != want {
			t.Errorf("%s %s: not tested, %d would catch +20%%; the A/A table says %d", c.Metric, c.Stat, c.DetectN, want)
		}
		if c.NeedN < c.DetectN || c.NeedN <= 400 {
			t.Errorf("%s %s: needs %d, catches at %d, tested at up to 400", c.Metric, c.Stat, c.NeedN, c.DetectN)
		}
		if c.NeedN > c.DetectN {
			bounding++
		}
	}
	if compared == 0 || bounding == 0 {
		t.Fatalf("%d checks not tested at 300 of 400, %d of them for their interval: the case is not exercised", compared, bounding)
	}
}
