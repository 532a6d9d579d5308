package compare

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/latgate/latgate/vocab"
)

// TestStatusesSayWhatWasShown: every tested check's status follows its
// interval and p-values, never its point estimate alone.
func TestStatusesSayWhatWasShown(t *testing.T) {
	t.Parallel()
	// Unchanged, many requests: bounded within the tolerance.
	calm := realistic()
	calm.spikeP = 0
	rng := rand.New(rand.NewPCG(11, 1))
	big := Compare([]Pair{{Endpoint: "e", Scenario: "s", Base: calm.sample(1500, rng), Head: calm.sample(1500, rng)}}, cfg())
	c := find(t, big, "s", vocab.TTFT, vocab.P50)
	if c.Status != vocab.WithinTolerance || !c.Bounded || c.CIPct[1] > 10 || c.NeedN != 0 {
		t.Errorf("unchanged, 1,500 a side: TTFT p50 %s bounded %v %+.1f%% %v need %d; want within tolerance, its interval inside 10%%", c.Status, c.Bounded, c.DeltaPct, c.CIPct, c.NeedN)
	}

	// +8% on 120 requests a side of an adaptive run that may measure 800:
	// not significant, the interval reaches past +10%: no regression
	// shown, and more requests would bound it. A fixed run of 120 could
	// not catch +20% at all: not tested.
	slow := realistic()
	slow.ttftScale = 1.08
	shown := 0
	for seed := range uint64(12) {
		runs := pair(realistic(), slow, 120, seed+40)
		if c := find(t, Compare(runs, cfg()), "short", vocab.TTFT, vocab.P50); c.Status != vocab.Regression && c.Status != vocab.Inconclusive && !c.Bounded && !shownWorse(&c) && (c.Status != vocab.NotTested || c.NeedN <= 120) {
			t.Errorf("seed %d: a fixed run of 120: TTFT p50 %s need %d; want not tested, needing more than 120", seed, c.Status, c.NeedN)
		}
		for _, p := range runs {
			p.Base.Max, p.Head.Max = 800, 800
		}
		r := Compare(runs, cfg())
		c := find(t, r, "short", vocab.TTFT, vocab.P50)
		switch c.Status {
		case vocab.NoRegressionShown:
			shown++
			if c.Bounded || !(c.CIPct[1] > 10) || c.Reason != vocab.NotSignificant {
				t.Errorf("seed %d: no regression shown with %v bounded %v reason %q", seed, c.CIPct, c.Bounded, c.Reason)
			}
			if c.DeltaPct < 10 && c.NeedN <= 120 {
				t.Errorf("seed %d: %+.1f%% %v: %d requests would bound it, want more than the 120 measured", seed, c.DeltaPct, c.CIPct, c.NeedN)
			}
		case vocab.WithinTolerance:
			if !c.Bounded || c.CIPct[1] > 10 {
				t.Errorf("seed %d: within tolerance with %v", seed, c.CIPct)
			}
		case vocab.Regression:
			if c.PValue > 0.05 {
				t.Errorf("seed %d: regression at p %v", seed, c.PValue)
			}
		case vocab.Inconclusive:
			if !(c.RawP <= 0.05 && c.PValue > 0.05) || c.Reason != vocab.Uncorrected {
				t.Errorf("seed %d: inconclusive at raw p %v, adjusted %v, reason %q: want significant alone only", seed, c.RawP, c.PValue, c.Reason)
			}
		default:
			t.Errorf("seed %d: TTFT p50 %s", seed, c.Status)
		}
	}
	if shown == 0 {
		t.Error("no seed left +8% at 120 requests a side unbounded")
	}
}

// TestP95AtPullRequestSizes: an unchanged P95 at a pull request's size is
// not tested, with the requests that would test it, whatever its point
// estimate; with a max that could test it, it is no regression shown.
func TestP95AtPullRequestSizes(t *testing.T) {
	t.Parallel()
	for seed := range uint64(6) {
		runs := pair(realistic(), realistic(), 100, seed+70)
		r := Compare(runs, cfg())
		c := find(t, r, "short", vocab.TTFT, vocab.P95)
		if c.Status == vocab.Regression || c.Status == vocab.Inconclusive {
			continue // noise may point anywhere; what follows is about the rest
		}
		if c.Bounded {
			continue
		}
		if c.Status != vocab.NotTested || c.Reason != vocab.Underpowered || c.NeedN <= 100 || c.Flagged() {
			t.Errorf("seed %d: unchanged TTFT p95 at 100 a side: %s (%s) need %d flagged %v; want not tested, needing more than 100, unflagged", seed, c.Status, c.Reason, c.NeedN, c.Flagged())
		}
		// The same data in a run that may measure 100,000 a side.
		for _, p := range runs {
			p.Base.Max, p.Head.Max = 100000, 100000
		}
		c = find(t, Compare(runs, cfg()), "short", vocab.TTFT, vocab.P95)
		if c.Status != vocab.NoRegressionShown || c.NeedN == 0 && c.DeltaPct < 10 {
			t.Errorf("seed %d: with max 100,000: %s need %d; want no regression shown with the requests that would bound it", seed, c.Status, c.NeedN)
		}
	}
}

// TestErrorRateBound: the error rate is bounded within its 1-point margin
// by Newcombe's interval: at 400 requests a side without a failure, not at
// 100, where a run that may measure 1,000 shows no regression and a run
// of 100 could not bound it at all.
func TestErrorRateBound(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		n, max int
		want   vocab.Status
	}{{100, 1000, vocab.NoRegressionShown}, {100, 100, vocab.NotTested}, {400, 400, vocab.WithinTolerance}} {
		ok := func() *Sample {
			s := &Sample{Values: map[vocab.Metric][]float64{vocab.TTFT: make([]float64, tt.n)}, Max: tt.max}
			for i := range tt.n {
				s.OK = append(s.OK, true)
				s.Values[vocab.TTFT][i] = 100 + float64(i%7)
			}
			return s
		}
		r := Compare([]Pair{{Endpoint: "e", Scenario: "s", Base: ok(), Head: ok()}}, cfg())
		c := find(t, r, "s", vocab.Errors, vocab.Rate)
		if c.Status != tt.want || c.CIPoints[1] <= 0 || c.CIPoints[0] >= 0 || c.Status != vocab.WithinTolerance && c.NeedN <= tt.n {
			t.Errorf("0 of %d (of at most %d) failed on both sides: %s %v need %d; want %s, an interval around 0", tt.n, tt.max, c.Status, c.CIPoints, c.NeedN, tt.want)
		}
	}
}

// TestNewcombe checks the interval against Newcombe (1998), Table II:
// 56/70 − 48/80 is 0.2000 [0.0524, 0.3339]; 9/10 − 3/10 is 0.6 [0.1705,
// 0.8090]. Our difference is cur − base.
func TestNewcombe(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		base       float64
		nb         int
		cur        float64
		nc         int
		want       [2]float64
		name       string
		alpha, tol float64
	}{
		{48.0 / 80, 80, 56.0 / 70, 70, [2]float64{0.0524, 0.3339}, "56/70 − 48/80", 0.05, 1e-3},
		{3.0 / 10, 10, 9.0 / 10, 10, [2]float64{0.1705, 0.8090}, "9/10 − 3/10", 0.05, 1e-3},
	} {
		got := newcombe(tt.base, tt.nb, tt.cur, tt.nc, tt.alpha)
		if math.Abs(got[0]-tt.want[0]) > tt.tol || math.Abs(got[1]-tt.want[1]) > tt.tol {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}
