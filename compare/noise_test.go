package compare

import (
	"math/rand/v2"
	"testing"
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
