package compare

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/latgate/latgate/vocab"
)

// history draws k baseline runs and one current run of n requests, every
// run's latency multiplied by its own drift factor exp(N(0, sigma)), the
// current one also by scale.
func history(k, n int, sigma, scale float64, seed uint64) []Series {
	rng := rand.New(rand.NewPCG(seed, 17))
	run := func(extra float64) *Sample {
		m := realistic()
		m.scale = math.Exp(sigma*rng.NormFloat64()) * extra
		return m.sample(n, rng)
	}
	s := Series{Endpoint: "e", Scenario: "s"}
	for range k {
		s.History = append(s.History, run(1))
	}
	s.Current = run(scale)
	return []Series{s}
}

func findIn(t *testing.T, r Result, metric vocab.Metric, stat vocab.Stat) Check {
	t.Helper()
	for _, c := range r.Checks {
		if c.Metric == metric && c.Stat == stat {
			return c
		}
	}
	t.Fatalf("no check %s %s", metric, stat)
	return Check{}
}

func TestHistory(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name         string
		sigma, scale float64
		want         func(Check) bool
		wantVerdict  vocab.Verdict
	}{
		{"unchanged, little drift", 0.02, 1, func(c Check) bool {
			// The words follow the interval: bounded when its upper end
			// is within the 10% tolerance, else no regression shown.
			if c.CIPct[1] <= 10 {
				return c.Status == vocab.WithinTolerance && c.Bounded
			}
			return c.Status == vocab.NoRegressionShown && !c.Bounded && c.CIPct[0] < 0
		}, "pass"},
		{"+50%, little drift", 0.02, 1.5, func(c Check) bool { return c.Status == vocab.Regression && c.DeltaPct > 30 && c.PValue <= 0.05 }, "fail"},
		{"-40%, little drift", 0.02, 0.6, func(c Check) bool { return c.Status == vocab.Improvement }, "pass"},
		{"doubled, drift beyond tolerance", 0.3, 2, func(c Check) bool {
			return c.Status == vocab.NotTested && c.Reason == vocab.HistorySpread && c.Spread > 0.10
		}, "pass"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, err := CompareHistory(history(10, 200, tt.sigma, tt.scale, 3), cfg())
			if err != nil {
				t.Fatal(err)
			}
			if c := findIn(t, r, "total", "p50"); !tt.want(c) {
				t.Errorf("total p50: status %s delta %.1f%% %v p %.4g reason %q", c.Status, c.DeltaPct, c.CIPct, c.PValue, c.Reason)
			}
			if r.Verdict != tt.wantVerdict {
				t.Errorf("verdict %s, want %s", r.Verdict, tt.wantVerdict)
			}
		})
	}
}

func TestHistoryRarelyFailsUnderDrift(t *testing.T) {
	t.Parallel()
	// Drift of 5% per run: the history sees it, so unchanged runs pass.
	fails := 0
	for seed := range uint64(40) {
		r, err := CompareHistory(history(10, 50, 0.05, 1, seed), cfg())
		if err != nil {
			t.Fatal(err)
		}
		if r.Verdict == "fail" {
			fails++
		}
	}
	if fails > 1 {
		t.Errorf("%d of 40 unchanged runs failed against a drifting history, want at most 1", fails)
	}
}

func TestHistoryBadInputAndNoBaseline(t *testing.T) {
	t.Parallel()
	s := history(1, 50, 0, 1, 1)
	if _, err := CompareHistory(s, cfg()); !errors.Is(err, ErrShortHistory) {
		t.Errorf("one baseline run: err %v, want ErrShortHistory", err)
	}
	s = history(3, 50, 0, 1, 1)
	rng := rand.New(rand.NewPCG(2, 2))
	c := cfg()
	c.Budgets = []Budget{{Metric: "ttft", Stat: "p50", Value: 100}}
	s = append(s, Series{Endpoint: "e", Scenario: "new", Current: realistic().sample(50, rng)})
	r, err := CompareHistory(s, c)
	if err != nil {
		t.Fatal(err)
	}
	for _, ch := range r.Checks {
		switch {
		case ch.Scenario == "new" && ch.Metric == "ttft" && ch.Stat == "p50":
			if ch.Status != vocab.OverBudget {
				t.Errorf("new scenario over its budget: %s", ch.Status)
			}
		case ch.Scenario == "new" && ch.Status != vocab.NoBaseline:
			t.Errorf("new scenario %s %s: %s, want no_baseline", ch.Metric, ch.Stat, ch.Status)
		case ch.Scenario == "s" && ch.Metric == "ttft" && ch.Stat == "p50" && ch.Status != vocab.OverBudget:
			t.Errorf("budget breach in a compared scenario: %s, want over_budget", ch.Status)
		}
	}
	if r.Verdict != "fail" {
		t.Errorf("verdict %s with budget breaches, want fail", r.Verdict)
	}
}

func TestHistoryIntervalHoldsTheChange(t *testing.T) {
	t.Parallel()
	r, err := CompareHistory(history(10, 200, 0.02, 1.5, 4), cfg())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range r.Checks {
		if c.Metric == "errors" || math.IsNaN(c.CIPct[0]) {
			continue
		}
		if !(c.CIPct[0] <= c.DeltaPct && c.DeltaPct <= c.CIPct[1]) {
			t.Errorf("%s %s: change %.1f%% outside its interval %v", c.Metric, c.Stat, c.DeltaPct, c.CIPct)
		}
	}
	if c := findIn(t, r, "total", "p50"); c.CIPct[0] < 30 || c.CIPct[1] > 70 {
		t.Errorf("total p50 +50%%: interval %v", c.CIPct)
	}
}
