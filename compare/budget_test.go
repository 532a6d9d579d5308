package compare

import (
	"math"
	"testing"

	"github.com/latgate/latgate/vocab"
)

// sampleOf is a sample of n requests with ttft v(i), the failed ones NaN.
func sampleOf(n int, v func(i int) float64) *Sample {
	s := &Sample{Values: map[vocab.Metric][]float64{}}
	for i := range n {
		x := v(i)
		s.OK = append(s.OK, !math.IsNaN(x))
		s.Values[vocab.TTFT] = append(s.Values[vocab.TTFT], x)
	}
	return s
}

// The exact binomial test at its edges: p95 ≤ 800 ms holds at n = 60 with
// none over (0.95^60 = 0.046), not at n = 58 (0.051); with 7 of 60 over it
// is missed (P(Bin(60, 0.05) ≥ 7) = 0.033), with 6 neither (0.084).
func TestBudgetTestEdges(t *testing.T) {
	p95 := Budget{Metric: vocab.TTFT, Stat: vocab.P95, Value: 800}
	over := func(n, k int) *Sample {
		return sampleOf(n, func(i int) float64 {
			if i < k {
				return 900
			}
			return 100
		})
	}
	for _, c := range []struct {
		n, k int
		want vocab.Status
	}{{60, 0, vocab.OK}, {58, 0, vocab.Inconclusive}, {60, 1, vocab.Inconclusive}, {60, 6, vocab.Inconclusive}, {60, 7, vocab.OverBudget}, {10, 4, vocab.OverBudget}} {
		got := TestBudget(over(c.n, c.k), p95, nil, 0.05)
		if got.Status != c.want || got.Miss != c.k || got.N != c.n {
			t.Errorf("%d of %d over: %s (%d of %d), want %s", c.k, c.n, got.Status, got.Miss, got.N, c.want)
		}
	}
	if n := vocab.MinHold(0.05, 0.05); n != 59 {
		t.Errorf("MinHold(p95) = %d, want 59", n)
	}
	// P(Bin(120, 0.05) ≤ 1) = 0.016 ≤ 0.05 < P(≤ 2) = 0.058: one miss.
	if k := TestBudget(over(120, 0), p95, nil, 0.05).MaxMisses(120, 0.05); k != 1 {
		t.Errorf("MaxMisses(120) = %d, want 1", k)
	}
}

// A failed request misses a latency objective: its value (the successful
// requests' p95) is within the budget, its test is not.
func TestBudgetTestCountsFailures(t *testing.T) {
	s := sampleOf(60, func(i int) float64 {
		if i%5 == 0 {
			return math.NaN()
		}
		return 100
	})
	got := TestBudget(s, Budget{Metric: vocab.TTFT, Stat: vocab.P95, Value: 800}, nil, 0.05)
	if got.Value != 100 || got.Miss != 12 || got.Status != vocab.OverBudget {
		t.Fatalf("value %v, %d missed, %s; want 100, 12 missed, over_budget", got.Value, got.Miss, got.Status)
	}
	errs := TestBudget(s, Budget{Metric: vocab.Errors, Stat: vocab.Rate, Value: 0.30}, nil, 0.05)
	if errs.Value != 0.2 || errs.Status != vocab.Inconclusive {
		t.Fatalf("errors %v: %s; want 0.2, inconclusive at 30%% with 60 requests", errs.Value, errs.Status)
	}
	good := TestBudget(s, Budget{Metric: vocab.Goodput, Stat: vocab.Rate, Value: 0.95}, []SLO{{Metric: vocab.TTFT, Max: 50}}, 0.05)
	if good.Miss != 60 || good.Status != vocab.OverBudget {
		t.Fatalf("goodput: %d missed, %s; want all 60 over_budget", good.Miss, good.Status)
	}
	if mean := TestBudget(s, Budget{Metric: vocab.TTFT, Stat: vocab.Mean, Value: 800}, nil, 0.05); mean.Status != vocab.Inconclusive {
		t.Fatalf("a mean: %s, want inconclusive (no distribution-free test)", mean.Status)
	}
	// A metric no request observed (a session's answer on a single call)
	// never holds, whatever the count.
	if none := TestBudget(sampleOf(60, func(int) float64 { return 100 }), Budget{Metric: vocab.Answer, Stat: vocab.P95, Value: 800}, nil, 0.05); none.Status != vocab.Inconclusive {
		t.Fatalf("an unobserved metric: %s, want inconclusive", none.Status)
	}
}

// A latency budget is tested from its statistic's minimum of successful
// requests on (vocab.Stat.MinN: 40 for a p95): one request short, a p95 of
// every request beyond the budget is not tested, needs 40, and fails no
// gate — without a baseline, against one, and against a history; at 40 it
// is over budget.
func TestBudgetNeedsItsStatisticsRequests(t *testing.T) {
	t.Parallel()
	c := cfg()
	c.Budgets = []Budget{{Metric: vocab.TTFT, Stat: vocab.P95, Value: 800}}
	slow := func(n int) *Sample { return sampleOf(n, func(i int) float64 { return 900 + float64(i) }) }
	need := vocab.P95.MinN()
	for _, n := range []int{need - 1, need} {
		want, verdict := vocab.NotTested, vocab.Pass
		if n == need {
			want, verdict = vocab.OverBudget, vocab.Fail
		}
		runs := map[string][]Pair{
			"no baseline": {{Endpoint: "e", Scenario: "s", Head: slow(n)}},
			"a baseline":  {{Endpoint: "e", Scenario: "s", Base: slow(n), Head: slow(n)}},
		}
		for name, rs := range runs {
			r := Compare(rs, c)
			ch := find(t, r, "s", vocab.TTFT, vocab.P95)
			if ch.Status != want || r.Verdict != verdict || ch.Status == vocab.NotTested && (ch.NeedN != need || ch.Reason != vocab.TooFew) {
				t.Errorf("%s, %d requests: %s (%s, needs %d), verdict %s; want %s, %s (needs %d)", name, n, ch.Status, ch.Reason, ch.NeedN, r.Verdict, want, verdict, need)
			}
		}
		h, err := CompareHistory([]Series{{Endpoint: "e", Scenario: "s", History: []*Sample{slow(100), slow(100)}, Current: slow(n)}}, c)
		if err != nil {
			t.Fatal(err)
		}
		if ch := find(t, h, "s", vocab.TTFT, vocab.P95); ch.Status != want || h.Verdict != verdict {
			t.Errorf("a history, %d requests: %s, verdict %s; want %s, %s", n, ch.Status, h.Verdict, want, verdict)
		}
	}
}
